#!/usr/bin/env python3
"""Upper bound on the GPU allocation ratio an offline packer can reach for one replay sequence (issue #14).

Relaxation (every real placement is feasible here, so the optimum is an upper bound):
  - cpu and memory ignored (mode "gpu"), or only summed per node type (mode "cpu": the pods placed on the nodes of
    one type ask at most that type's total cpu and memory, a relaxation of the per-node limits);
  - a whole-GPU pod of k GPUs takes k whole devices of one node; share pods each go to one device, at most 1000
    milli per device, and never onto a device a whole pod holds; gpu_spec honoured by node model (the default
    openb pod list has none);
  - the packer knows all pods and may leave any out (so it is an upper bound for any online policy too).
Solved exactly as an ILP (scipy.optimize.milp / HiGHS): per node type, how many nodes take each multiset of
whole-GPU pod sizes; per model, how many free devices take each pattern of share sizes (maximal patterns); how many
pods of each (kind, size) are placed.

Usage: gpu_bound.py SEQ.csv [--cpu]  where SEQ.csv has uid,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec
(the replay's sequence; scripts/issue14/DumpSeq.java writes it).
"""
import csv, sys, collections, itertools
import numpy as np
from scipy.optimize import milp, LinearConstraint, Bounds
from scipy.sparse import lil_matrix

NODES = '/work/shared/traces/openb/openb_node_list_gpu_node.csv'


def share_patterns(sizes):
    """Maximal multisets of sizes with sum <= 1000 (as count vectors)."""
    sizes = sorted(sizes, reverse=True)
    out = []
    smallest = sizes[-1]

    def rec(i, left, cur):
        if i == len(sizes):
            if left < smallest and any(cur):  # maximal: nothing more fits
                out.append(tuple(cur))
            elif left >= smallest and any(cur):
                # not maximal only if some size fits; sizes before i were fixed, check them
                if all(s > left for s in sizes):
                    out.append(tuple(cur))
            return
        s = sizes[i]
        for c in range(left // s, -1, -1):
            cur.append(c)
            rec(i + 1, left - c * s, cur)
            cur.pop()

    rec(0, 1000, [])
    return sizes, out


def whole_configs(g, ksizes):
    out = []
    def rec(i, left, cur):
        if i == len(ksizes):
            out.append(tuple(cur))
            return
        k = ksizes[i]
        for c in range(left // k + 1):
            cur.append(c)
            rec(i + 1, left - c * k, cur)
            cur.pop()
    rec(0, g, [])
    return out


def main():
    seq = sys.argv[1]
    use_cpu = '--cpu' in sys.argv
    nodes = list(csv.DictReader(open(NODES)))
    pods = list(csv.DictReader(open(seq)))
    cap = sum(int(n['gpu']) for n in nodes) * 1000
    models = sorted({n['model'] for n in nodes})
    ntype = collections.Counter((n['model'], int(n['gpu']), int(n['cpu_milli']), int(n['memory_mib'])) for n in nodes)
    types = sorted(ntype)
    # pod classes: (kind, size, spec, cpu, mem) aggregated; cpu/mem only matter with --cpu
    cls = collections.Counter()
    for p in pods:
        k, m = int(p['num_gpu']), int(p['gpu_milli'])
        if k == 0:
            continue  # no GPU value; leaving them out is allowed
        key = ('share', m) if m < 1000 else ('whole', k)
        cpu = int(p['cpu_milli']) if use_cpu else 0
        mem = int(p['memory_mib']) if use_cpu else 0
        cls[(key, p['gpu_spec'], cpu, mem)] += 1
    classes = sorted(cls)
    ksizes = sorted({c[0][1] for c in classes if c[0][0] == 'whole'})
    ssizes, pats = share_patterns(sorted({c[0][1] for c in classes if c[0][0] == 'share'}))
    print(f'{len(pods)} pods, {len(classes)} classes, {len(pats)} share patterns, whole sizes {ksizes}', file=sys.stderr)

    var = []  # (name, objective)
    def add(name, obj=0.0):
        var.append((name, obj)); return len(var) - 1
    # node type configs
    xc = {}
    for t in types:
        for c in whole_configs(t[1], ksizes):
            xc[(t, c)] = add(('x', t, c))
    # share patterns per model
    zp = {}
    for m in models:
        for i, p in enumerate(pats):
            zp[(m, i)] = add(('z', m, i))
    # assignment of classes to node types (whole) or models (share); value in milli
    ya = {}
    for ci, c in enumerate(classes):
        (kind, size), spec, cpu, mem = c
        ok = set(spec.split('|')) if spec else None
        if kind == 'whole':
            for t in types:
                if t[1] >= size and (ok is None or t[0] in ok):
                    ya[(ci, t)] = add(('y', ci, t), 1000.0 * size)
        else:
            for t in types:
                if ok is None or t[0] in ok:
                    ya[(ci, t)] = add(('y', ci, t), float(size))
    n = len(var)
    rows = []  # (coef dict, lo, hi)
    # nodes per type
    for t in types:
        rows.append(({xc[(t, c)]: 1 for c in whole_configs(t[1], ksizes)}, ntype[t], ntype[t]))
    # whole pods of size k on type t <= slots
    for t in types:
        for ki, k in enumerate(ksizes):
            if k > t[1]:
                continue
            d = {xc[(t, c)]: -c[ki] for c in whole_configs(t[1], ksizes) if c[ki]}
            for ci, c in enumerate(classes):
                if c[0] == ('whole', k) and (ci, t) in ya:
                    d[ya[(ci, t)]] = 1
            rows.append((d, -np.inf, 0))
    # share devices of model m <= free devices of model m
    for m in models:
        d = {zp[(m, i)]: 1 for i in range(len(pats))}
        for t in types:
            if t[0] != m:
                continue
            for c in whole_configs(t[1], ksizes):
                free = t[1] - sum(a * b for a, b in zip(c, ksizes))
                if free:
                    d[xc[(t, c)]] = d.get(xc[(t, c)], 0) - free
        rows.append((d, -np.inf, 0))
    # share pods of size s on model m <= pattern slots
    for m in models:
        for si, s in enumerate(ssizes):
            d = {zp[(m, i)]: -p[si] for i, p in enumerate(pats) if p[si]}
            for ci, c in enumerate(classes):
                if c[0] == ('share', s):
                    for t in types:
                        if t[0] == m and (ci, t) in ya:
                            d[ya[(ci, t)]] = 1
            rows.append((d, -np.inf, 0))
    # pods per class
    for ci, c in enumerate(classes):
        d = {ya[k]: 1 for k in ya if k[0] == ci}
        rows.append((d, 0, cls[c]))
    if use_cpu:
        for t in types:
            for r, lim in ((2, t[2]), (3, t[3])):
                d = {ya[k]: classes[k[0]][r] for k in ya if k[1] == t and classes[k[0]][r]}
                rows.append((d, -np.inf, lim * ntype[t]))
    A = lil_matrix((len(rows), n))
    lo = np.empty(len(rows)); hi = np.empty(len(rows))
    for r, (d, l, h) in enumerate(rows):
        for j, v in d.items():
            A[r, j] = v
        lo[r] = l; hi[r] = h
    c = -np.array([o for _, o in var])
    integ = np.ones(n)
    res = milp(c, constraints=LinearConstraint(A.tocsr(), lo, hi), integrality=integ,
               bounds=Bounds(0, np.inf), options={'time_limit': 600, 'mip_rel_gap': 1e-6})
    lp = milp(c, constraints=LinearConstraint(A.tocsr(), lo, hi), integrality=np.zeros(n), bounds=Bounds(0, np.inf))
    demand = sum(int(p['num_gpu']) * int(p['gpu_milli']) for p in pods)
    best = -res.fun if res.x is not None else float('nan')
    # the ILP's dual bound (valid upper bound even if not solved to optimality)
    dual = getattr(res, 'mip_dual_bound', None)
    ub = -dual if dual is not None else best
    print(f'{seq}: demand {100*demand/cap:.2f}%  ILP {100*best/cap:.3f}%  ILP bound {100*ub/cap:.3f}%  '
          f'LP {100*-lp.fun/cap:.3f}%  status {res.status} {res.message}')
    if res.x is not None:
        x = np.round(res.x).astype(int)
        used = collections.Counter()
        for (ci, t), j in ya.items():
            used[classes[ci][0]] += x[j]
        tot = collections.Counter()
        for c, v in cls.items():
            tot[c[0]] += v
        left = {k: tot[k] - used[k] for k in sorted(tot) if tot[k] - used[k]}
        print('  left out:', left)


if __name__ == '__main__':
    main()
