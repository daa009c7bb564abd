/* A store file that reaches up to the config, JSON and an exporter. */
#include "store.h"

#include "config.h"
#include "json-read.h"
#include "export-fixture.h"
