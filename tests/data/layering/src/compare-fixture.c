/* A compare file that reaches into an importer. */
#include "compare.h"

#include "import-fixture.h"
