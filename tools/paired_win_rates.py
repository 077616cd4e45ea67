"""Win rates of two `depths-sim play --per-game` files over the seeds both
played, with 95% Wilson intervals, the paired difference (95% normal interval
from the games only one of them won) and McNemar's z; with a search bot, what
searching cost (with the planning bot, its Exploring decisions apart).

    python3 tools/paired_win_rates.py search.jsonl careful.jsonl
"""
import json, sys, math
def load(p):
    d={}
    for l in open(p):
        l=l.strip()
        if l: r=json.loads(l); d[r['seed']]=r
    return d
def wilson(w,n,z=1.96):
    if n==0: return (0,0)
    p=w/n; c=(p+z*z/(2*n))/(1+z*z/n); h=z*math.sqrt((p*(1-p)+z*z/(4*n))/n)/(1+z*z/n)
    return (max(0,c-h),min(1,c+h))
a=load(sys.argv[1]); b=load(sys.argv[2])
seeds=sorted(set(a)&set(b)); n=len(seeds)
wa=sum(a[s]['won'] for s in seeds); wb=sum(b[s]['won'] for s in seeds)
for name,w in ((sys.argv[1],wa),(sys.argv[2],wb)):
    lo,hi=wilson(w,n); print(f"{name}: {w}/{n} = {100*w/n:.1f}% (95% Wilson {100*lo:.1f}-{100*hi:.1f}%)")
only_a=sum(a[s]['won'] and not b[s]['won'] for s in seeds); only_b=sum(b[s]['won'] and not a[s]['won'] for s in seeds)
d=(only_a-only_b)/n; se=math.sqrt(max(0,(only_a+only_b)-(only_a-only_b)**2/n))/n
print(f"paired: first wins only {only_a}, second wins only {only_b}; difference {100*d:+.1f} points (95% ±{196*se:.1f})")
if only_a+only_b>0:
    z=(only_a-only_b)/math.sqrt(only_a+only_b); print(f"McNemar z = {z:.2f}")
for name,x in ((sys.argv[1],a),(sys.argv[2],b)):
    rs=[x[s] for s in seeds if 'searched' in x[s]]
    if rs:
        S=sum(r['searched'] for r in rs); T=sum(r['search_seconds'] for r in rs); M=max(r['max_ms'] for r in rs); C=sum(r['changed'] for r in rs)
        print(f"{name}: {S} searched decisions ({S/len(rs):.0f}/game, {C} changed), mean {1000*T/S:.2f} ms, max {M:.1f} ms, search time {T:.0f} s")
    rs=[x[s] for s in seeds if 'explored' in x[s]]
    if rs:
        S=sum(r['explored'] for r in rs); T=sum(r['explore_seconds'] for r in rs); M=max(r['explore_max_ms'] for r in rs); C=sum(r['explore_changed'] for r in rs)
        print(f"{name}: {S} searched Exploring decisions ({S/len(rs):.0f}/game, {C} changed), mean {1000*T/S:.2f} ms, max {M:.1f} ms, search time {T:.0f} s")
