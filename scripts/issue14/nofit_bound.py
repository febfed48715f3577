#!/usr/bin/env python3
"""Upper bound for a policy that never refuses a pod that fits (issue #14), GPU only.

Let T be the first GPU pod (in the replay's order) that finds no untouched GPU left. Every share pod and every
1-GPU pod before T is placed (an untouched GPU could take it); no whole-GPU pod from T on is placed (none is left
untouched, and with no departures none comes back); if T exists, no GPU is untouched at the end; and, since free
capacity only shrinks, a pod size with a skipped pod finds no room at the end (no GPU with that much free for a share
size, no untouched GPU for 1-GPU pods). For T in a range [a, b) the script relaxes this to: shares and 1-GPU pods
before a placed, whole pods from b on not placed, and maximises the allocated milli-GPUs over end states (integer
program: per node size, how many nodes take each multiset of whole-pod sizes; per GPU, one exact pattern of share
sizes summing to <= 1000, the empty one included). The bound is the largest over the ranges; ranges that are
infeasible give none. Before the first range, T cannot be: until the pods so far have touched as many GPUs as the
cluster has (a whole pod its GPUs, a share one GPU), an untouched GPU is left.

Relaxations (each only raises the bound): cpu and memory ignored (a policy that lets a node's cpu block free GPUs
counts as refusing here); multi-GPU pods before T optional and their "skipped means no node has k free GPUs" not
imposed; T only known to lie in its range. gpu_spec must be empty (the default openb list; asserted), so GPU models
do not matter.

Usage: nofit_bound.py SEQ.csv [RANGES]   (RANGES: how many ranges of T, default 1; scipy.optimize.milp / HiGHS)
SHOW_PATTERNS=1 prints the share patterns of each range's best end state.
"""
import csv, os, sys, collections
import numpy as np
from scipy.optimize import milp, LinearConstraint, Bounds
from scipy.sparse import lil_matrix

NODES = '/work/shared/traces/openb/openb_node_list_gpu_node.csv'


def all_patterns(sizes):
    out = []
    def rec(i, left, cur):
        if i == len(sizes):
            out.append(tuple(cur)); return
        for c in range(left // sizes[i] + 1):
            cur.append(c); rec(i + 1, left - c * sizes[i], cur); cur.pop()
    rec(0, 1000, [])
    return out


def whole_configs(g, ks):
    out = []
    def rec(i, left, cur):
        if i == len(ks):
            out.append(tuple(cur)); return
        for c in range(left // ks[i] + 1):
            cur.append(c); rec(i + 1, left - c * ks[i], cur); cur.pop()
    rec(0, g, [])
    return out


def solve(ng, ks, ss, whole, share, pats, lo_w, hi_w, lo_s, no_untouched):
    gs = sorted(ng)
    var = []
    def add(o=0.0):
        var.append(o); return len(var) - 1
    xc = {(g, c): add() for g in gs for c in whole_configs(g, ks)}
    zp = [add() for _ in pats]
    yw = {k: add(1000.0 * k) for k in ks}            # whole pods of k GPUs placed
    ys = {s: add(0.0) for s in ss}                   # share pods of size s placed (value via patterns)
    bw1 = add(); bs = {s: add() for s in ss}         # 1: every pod of that kind placed
    n = len(var)
    obj = np.array(var)
    for i, p in enumerate(pats):
        obj[zp[i]] = sum(a * s for a, s in zip(p, ss))
    rows = []
    for g in gs:
        rows.append(({xc[(g, c)]: 1 for c in whole_configs(g, ks)}, ng[g], ng[g]))
    for ki, k in enumerate(ks):
        d = {xc[(g, c)]: -c[ki] for g in gs for c in whole_configs(g, ks) if c[ki]}
        d[yw[k]] = 1
        rows.append((d, 0, 0))
    # every device not held by whole pods carries exactly one pattern (the empty one included)
    d = {zp[i]: 1 for i in range(len(pats))}
    for g in gs:
        for c in whole_configs(g, ks):
            free = g - sum(a * b for a, b in zip(c, ks))
            if free:
                d[xc[(g, c)]] = -free
    rows.append((d, 0, 0))
    for si, s in enumerate(ss):
        d = {zp[i]: p[si] for i, p in enumerate(pats) if p[si]}
        d[ys[s]] = -1
        rows.append((d, 0, 0))
        rows.append(({ys[s]: 1, bs[s]: -share[s]}, 0, np.inf))   # b_s = 1 -> all placed
        M = 6212
        for i, p in enumerate(pats):                               # b_s = 0 -> no device with room for s
            if 1000 - sum(a * t for a, t in zip(p, ss)) >= s:
                rows.append(({zp[i]: 1, bs[s]: -M}, -np.inf, 0))
    rows.append(({yw[1]: 1, bw1: -hi_w[1]}, 0, np.inf))
    empty = pats.index(tuple(0 for _ in ss))
    rows.append(({zp[empty]: 1, bw1: -6212}, -np.inf, 0))
    ub = np.full(n, np.inf)
    for k in ks:
        ub[yw[k]] = hi_w[k]
    for s in ss:
        ub[ys[s]] = share[s]
    lb = np.zeros(n)
    for k in ks:
        lb[yw[k]] = lo_w[k]
    for s_ in ss:
        lb[ys[s_]] = lo_s[s_]
    if no_untouched:
        ub[zp[empty]] = 0
    ub[bw1] = 1
    for s in ss:
        ub[bs[s]] = 1
    A = lil_matrix((len(rows), n)); lo = np.empty(len(rows)); hi = np.empty(len(rows))
    for r, (d, l, h) in enumerate(rows):
        for j, v in d.items():
            A[r, j] = v
        lo[r] = l; hi[r] = h
    res = milp(-obj, constraints=LinearConstraint(A.tocsr(), lo, hi), integrality=np.ones(n),
               bounds=Bounds(lb, ub), options={'time_limit': 900, 'mip_rel_gap': 1e-7})
    best = -res.fun if res.x is not None else float('nan')
    dual = getattr(res, 'mip_dual_bound', None)
    bound = -dual if dual is not None else best
    x = np.round(res.x).astype(int) if res.x is not None else None
    skipped = {}
    if x is not None:
        skipped = {f'share {s}': share[s] - x[ys[s]] for s in ss if share[s] - x[ys[s]]}
        skipped.update({f'whole {k}': whole[k] - x[yw[k]] for k in ks if whole[k] - x[yw[k]]})
        if os.environ.get('SHOW_PATTERNS'):
            gaps = collections.Counter()
            for i, p in enumerate(pats):
                if x[zp[i]]:
                    gaps[1000 - sum(a * t for a, t in zip(p, ss))] += x[zp[i]]
                    if x[zp[i]] >= 10:
                        print('   ', x[zp[i]], 'x', {t: a for a, t in zip(p, ss) if a}, file=sys.stderr)
            print('    free milli per share device (free: devices):', sorted(gaps.items()), file=sys.stderr)
    return best, bound, skipped, res.message


def main():
    seq = sys.argv[1]
    nodes = list(csv.DictReader(open(NODES)))
    pods = list(csv.DictReader(open(seq)))
    assert all(not p['gpu_spec'] for p in pods), 'gpu_spec not supported here'
    cap = sum(int(n['gpu']) for n in nodes) * 1000
    ng = collections.Counter(int(n['gpu']) for n in nodes)
    gs = sorted(ng)
    whole = collections.Counter(int(p['num_gpu']) for p in pods if int(p['gpu_milli']) == 1000)
    share = collections.Counter(int(p['gpu_milli']) for p in pods if 0 < int(p['gpu_milli']) < 1000)
    ks = sorted(whole); ss = sorted(share)
    pats = all_patterns(ss)
    gpu = [(int(p['num_gpu']), int(p['gpu_milli'])) for p in pods if int(p['num_gpu']) > 0]
    n = len(gpu)
    devices = cap // 1000
    t0, touched = n, 0
    for i, (k, m) in enumerate(gpu):
        if touched >= devices:
            t0 = i
            break
        touched += k if m == 1000 else 1
    buckets = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    edges = sorted({t0 + (n - t0) * j // buckets for j in range(buckets)} | {n + 1})
    overall = -1
    for a, b in zip(edges, edges[1:]):
        # T (the first arrival finding no untouched device) in [a, b): pods before a that are shares or 1-GPU are
        # placed (an untouched device was there); whole pods from b on are not (none left); and if T <= n at the end
        # no device is untouched
        lo_w, lo_s, hi_w = collections.Counter(), collections.Counter(), collections.Counter()
        for i, (k, m) in enumerate(gpu):
            if m == 1000:
                if i < b:
                    hi_w[k] += 1
                if i < a and k == 1:
                    lo_w[1] += 1
            elif i < a:
                lo_s[m] += 1
        best, bound, skipped, msg = solve(ng, ks, ss, whole, share, pats, lo_w, hi_w, lo_s, b <= n)
        print(f'  T in [{a}, {b}): {100*bound/cap:.3f}%  ({msg})  skipped {skipped}', file=sys.stderr)
        if bound != bound and 'infeasible' not in str(msg).lower():
            raise SystemExit(f'bucket [{a}, {b}) not solved: {msg}')  # no bound for it: do not report one
        if bound == bound:
            overall = max(overall, bound)
    print(f'{seq}: upper bound {100*overall/cap:.3f}% ({buckets} buckets of T from {t0} to {n})')


if __name__ == '__main__':
    main()
