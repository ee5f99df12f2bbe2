// The hooks are inline functions of the header; this file gives the target
// the source SwiftPM asks of a C target.
#include "PagingLockHooks.h"
