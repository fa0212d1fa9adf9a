"""python-blosc2's side of the issue-19 comparison (bench/cmd/pyb2 is b2sql's).

    python time20m.py make DIR       write DIR/pyb2_20m.b2d and DIR/pyb2_20m_utf8.b2d
    python time20m.py time DIR OUT [K,…]
                                     time the 8 calls (or those numbered K, 1–8),
                                     write {name: {ms, cpu_ms, answer}} to OUT

The table: 20,000,000 rows, id int64 sorted, temperature float64 (normal,
mean 15, sd 6.25: a few hundred rows above 40) with a FULL index, price
float64 (cents up to 10,000), qty int32 < 100, region int16 < 10, category
one of 50 strings as dictionary() (utf8() in the second copy); python-blosc2's
defaults otherwise (ZSTD clevel 5 + SHUFFLE for CTable columns). Timing: 2
threads (blosc2.set_nthreads), tables opened once, each call warmed up once
and then run RUNS times; the best is kept, as bench/cmd/pyb2 does.
"""
import json
import os
import sys
import time
from dataclasses import dataclass

import numpy as np

import blosc2

N = 20_000_000
RUNS = 5
CATS = np.array([f"cat_{k:02d}" for k in range(50)])
VALS = ["cat_01", "cat_07", "cat_13", "cat_22", "cat_39"]


def make(dirname):
    @dataclass
    class RowD:
        id: int = blosc2.field(blosc2.int64())
        temperature: float = blosc2.field(blosc2.float64())
        price: float = blosc2.field(blosc2.float64())
        qty: int = blosc2.field(blosc2.int32())
        region: int = blosc2.field(blosc2.int16())
        category: str = blosc2.field(blosc2.dictionary())

    @dataclass
    class RowU:
        id: int = blosc2.field(blosc2.int64())
        temperature: float = blosc2.field(blosc2.float64())
        price: float = blosc2.field(blosc2.float64())
        qty: int = blosc2.field(blosc2.int32())
        region: int = blosc2.field(blosc2.int16())
        category: str = blosc2.field(blosc2.utf8())

    for row, name in ((RowD, "pyb2_20m.b2d"), (RowU, "pyb2_20m_utf8.b2d")):
        path = os.path.join(dirname, name)
        if os.path.exists(path):
            print(path, "exists")
            continue
        rng = np.random.default_rng(42)
        t = blosc2.CTable(row, urlpath=path + ".tmp", mode="w", expected_size=N)
        step = 1_000_000
        for lo in range(0, N, step):
            n = min(step, N - lo)
            t.extend({
                "id": np.arange(lo, lo + n, dtype=np.int64),
                "temperature": rng.normal(15, 6.25, n),
                "price": rng.integers(0, 1_000_000, n) / 100.0,
                "qty": rng.integers(0, 100, n).astype(np.int32),
                "region": rng.integers(0, 10, n).astype(np.int16),
                "category": [str(s) for s in CATS[rng.integers(0, 50, n)]],
            }, validate=False)
        t.create_index("temperature", kind="full")
        # close, not del: close flushes the dictionary and utf8 columns,
        # trims the capacity and builds the SUMMARY indexes; __del__ only
        # closes the storage (a table left without its dictionary values).
        t.close()
        os.rename(path + ".tmp", path)
        print(path, "written")


def answer(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        return float(x)
    return x


def timed(fn):
    """Best wall and best CPU time (all threads of the process) in ms over
    RUNS runs after one warm-up, and the warm-up's answer. CPU time is less
    disturbed than wall time when other work shares the machine."""
    out = fn()
    best, best_cpu = float("inf"), float("inf")
    for _ in range(RUNS):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best * 1e3, best_cpu * 1e3, out


def time_all(dirname, out, only=None):
    blosc2.set_nthreads(2)
    t = blosc2.CTable.open(os.path.join(dirname, "pyb2_20m.b2d"))
    u = None
    if not only or 7 in only:
        u = blosc2.CTable.open(os.path.join(dirname, "pyb2_20m_utf8.b2d"))

    def grouped(tab):
        g = tab.group_by("category", sort=True).agg(n=("*", "size"), s=("qty", "sum"))
        return [[str(c), int(n), int(s)] for c, n, s in zip(g["category"][:], g["n"][:], g["s"][:])]

    def top10():
        s = t.sorted_slice("temperature", slice(0, 10), ascending=False)
        return [[float(a), int(b)] for a, b in zip(s["temperature"][:], s["id"][:])]

    ops = {
        "column reduce": lambda: answer(t["price"].sum()),
        "filtered sum": lambda: answer(t["price"].sum(where=t.region == 3)),
        "count through FULL": lambda: len(t.where("temperature > 40")),
        "max from index": lambda: answer(t["temperature"].max()),
        "group by dictionary()": lambda: grouped(t),
        "top-10 through FULL": top10,
        "group by utf8()": lambda: grouped(u),
        "IN of 5 values": lambda: answer(np.asarray(t["category"].isin(VALS)).sum()),
    }
    res = {}
    for k, (name, fn) in enumerate(ops.items(), 1):
        if only and k not in only:
            continue
        ms, cpu_ms, ans = timed(fn)
        res[name] = {"ms": ms, "cpu_ms": cpu_ms, "answer": ans}
        print(f"{name:24s} {ms:10.2f} ms {cpu_ms:10.2f} ms CPU  {str(ans)[:100]}", flush=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=1, default=str)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        only = {int(k) for k in sys.argv[4].split(",")} if len(sys.argv) > 4 else None
        time_all(sys.argv[2], sys.argv[3], only)
