"""Prints the fields of an amp-emulate --profile JSON file that
emulator-profile.test checks."""
import json
import sys

profile = json.load(open(sys.argv[1]))
kernels = profile["kernels"]
print("kernels", len(kernels), " ".join(k["name"] for k in kernels))
total = profile["total"]
print("launches", total["launches"])
print("tensor_macs.f16", total["tensor_macs"]["f16"])
print("bytes_read", total["bytes_read"])
print("bytes_written", total["bytes_written"])
print("cuLaunchKernel", profile["driver_calls"].get("cuLaunchKernel", 0))
print("ranged", str(profile["ranged"]).lower(), "ranges", profile["ranges"])
print("bound_by", kernels[0]["bound_by"])
print("bound H100 > 3 launches * 2 us:",
      total["bound_us"]["H100 SXM"] > 3 * 2.0)
