
// expect{{expected #r <re}}>d
func.func