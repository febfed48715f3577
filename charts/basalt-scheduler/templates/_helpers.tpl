{{/* Chart name, truncated to the 63 characters a label value allows. */}}
{{- define "basalt.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-qualified name; the release name alone when it already contains the chart name. */}}
{{- define "basalt.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "basalt.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selects the scheduler's pods only (the Service, the PDB, anti-affinity), not the topology agent's. */}}
{{- define "basalt.selectorLabels" -}}
app.kubernetes.io/name: {{ include "basalt.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: scheduler
{{- end }}

{{- define "basalt.commonLabels" -}}
helm.sh/chart: {{ include "basalt.chart" . }}
app.kubernetes.io/name: {{ include "basalt.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels of the scheduler's objects. */}}
{{- define "basalt.labels" -}}
{{ include "basalt.commonLabels" . }}
app.kubernetes.io/component: scheduler
{{- end }}

{{- define "basalt.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "basalt.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The ConfigMap holding volcano-scheduler.conf: its name and namespace. */}}
{{- define "basalt.configMapName" -}}
{{- if .Values.scheduler.configMap.create }}
{{- default (include "basalt.fullname" .) .Values.scheduler.configMap.name }}
{{- else }}
{{- required "scheduler.configMap.name is required when scheduler.configMap.create is false" .Values.scheduler.configMap.name }}
{{- end }}
{{- end }}

{{- define "basalt.configMapNamespace" -}}
{{- default .Release.Namespace .Values.scheduler.configMap.namespace }}
{{- end }}

{{- define "basalt.leaseName" -}}
{{- default (include "basalt.fullname" .) .Values.leaderElection.leaseName }}
{{- end }}

{{/* volcano-scheduler.conf from scheduler.actions, scheduler.tiers and scheduler.configurations; each plugin
     entry is written name first, its flags and arguments after it with toYaml. */}}
{{- define "basalt.schedulerConf" -}}
actions: {{ required "scheduler.actions is required" .Values.scheduler.actions | quote }}
tiers:
{{- range (required "scheduler.tiers is required" .Values.scheduler.tiers) }}
- plugins:
  {{- range .plugins }}
  - name: {{ required "every plugin in scheduler.tiers needs a name" .name }}
    {{- with omit . "name" }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- with .Values.scheduler.configurations }}
configurations:
{{- range . }}
- name: {{ required "every entry of scheduler.configurations needs a name" .name }}
  {{- with omit . "name" }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}
{{- end }}
{{- end }}

{{- define "basalt.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Refuses combinations that would break a cluster. */}}
{{- define "basalt.validate" -}}
{{- if and (gt (int .Values.replicaCount) 1) (not .Values.leaderElection.enabled) }}
{{- fail "replicaCount > 1 needs leaderElection.enabled: two active schedulers would bind pods onto the same free resources" }}
{{- end }}
{{- if not .Values.scheduler.names }}
{{- fail "scheduler.names must name at least one scheduler" }}
{{- end }}
{{- end }}

{{/*
The scheduler's JAVA_TOOL_OPTIONS: -Xmx from jvm.heap (or a share of the container's limit when it is empty), then
jvmOptions.
*/}}
{{- define "basalt.javaToolOptions" -}}
{{- $heap := "" }}
{{- with .Values.jvm }}{{ $heap = .heap | default "" }}{{ end }}
{{- $first := ternary (printf "-Xmx%s" $heap) "-XX:MaxRAMPercentage=70" (ne $heap "") }}
{{- trim (printf "%s %s" $first (.Values.jvmOptions | default "")) }}
{{- end }}
