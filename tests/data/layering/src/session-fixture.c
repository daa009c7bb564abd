/* A session file that reaches up to a renderer. */
#include "session.h"

#include "render-fixture.h"
