/* A store file that reaches up to the config and to JSON. */
#include "store.h"

#include "config.h"
#include "json-read.h"
