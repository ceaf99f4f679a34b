"""The timing of the PyTorch and Triton references of bench/gpu/run.sh, the
same as amp's executables: each call timed with a wall clock and ended by a
synchronize, the median taken; plus back-to-back kernel time from CUDA
events for the GEMMs."""

import time


def median_ms_per_call(call, iters, sync, warmup=5):
    """Median milliseconds of `iters` calls of `call`, each followed by
    `sync()`, after `warmup` calls."""
    for _ in range(warmup):
        call()
    sync()
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        call()
        sync()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    return times[len(times) // 2]


def event_ms_per_call(torch, call, iters):
    """Milliseconds per call of `iters` back-to-back calls, by CUDA events."""
    begin = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    begin.record()
    for _ in range(iters):
        call()
    end.record()
    torch.cuda.synchronize()
    return begin.elapsed_time(end) / iters
