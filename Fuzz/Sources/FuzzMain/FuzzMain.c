#include "FuzzMain.h"

#include <stddef.h>
#include <stdint.h>

// libFuzzer's (linked by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
// The target's own, written in Swift with @_cdecl.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int paging_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
