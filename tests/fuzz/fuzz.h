#ifndef MMCMP_FUZZ_H
#define MMCMP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/*
 * fuzz: the entry point every target in tests/fuzz defines. libFuzzer
 * calls it with each input (built with -Dfuzz=true, see scripts/fuzz);
 * replay.c calls it with the files named on its command line, which is
 * how the normal test suite replays the seeds and the inputs that once
 * crashed a target. It returns 0, and aborts when an input breaks a
 * contract of the code under test, so that both count it as a crash.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with a message on stderr unless ok (a contract failed). */
void fuzz_assert(int ok, const char *what, const char *detail);

/*
 * Check the one-line error contract of src/: err is a single line
 * without '\n' and, when prefix is not NULL, starts with it.
 */
void fuzz_check_error(const char *err, const char *prefix);

#endif /* MMCMP_FUZZ_H */
