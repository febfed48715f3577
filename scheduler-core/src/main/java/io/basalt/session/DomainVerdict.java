package io.basalt.session;

/**
 * One network domain a job asking for one was considered for, as {@code --explain} shows it.
 *
 * @param domain the domain's name; {@code (whole cluster)} for soft mode's last resort
 * @param tier its tier; 0 for the whole cluster
 * @param free how many of its ready nodes had room for one of the job's pods when it was considered ({@code 6/8
 *     nodes})
 * @param verdict why it was chosen or lost ({@code chosen}, {@code too small: 6 free nodes for 8 pods (...)},
 *     {@code ranked below sb1-df2 (...)}); a MetaX group's verdicts start with {@code group N: }
 */
public record DomainVerdict(String domain, int tier, String free, String verdict) {}
