import Foundation
import FuzzMain

// libFuzzer's driver on this target's `LLVMFuzzerTestOneInput` (FuzzMain.h says why it is called here).
exit(paging_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))
