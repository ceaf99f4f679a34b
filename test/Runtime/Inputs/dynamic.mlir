// A dynamically shaped entry point: the pipeline takes it, the harness does
// not.
func.func @dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %a : tensor<?x8xf32>
}
