#ifndef MMCMP_PROFILE_SYM_H
#define MMCMP_PROFILE_SYM_H

#include <stdint.h>

struct strbuf;

/*
 * profile-sym: names for the addresses of a profile (profile.h): kernel
 * addresses from /proc/kallsyms, addresses in a mapped file from the
 * function symbols of its ELF symbol table (.symtab, else .dynsym, which
 * a stripped binary keeps only for what it exports). An address without
 * a symbol is named after its file, "[libfoo.so.1]", or "[unknown]",
 * and counted for profile_sym_missing(). Kernel names end in "_[k]", as
 * flame graphs mark them.
 *
 * Names handed out live as long as the table. Nothing here fails: a file
 * that cannot be read has no symbols.
 */
struct profile_sym;

struct profile_sym *profile_sym_new(void);
/* NULL is a no-op. */
void profile_sym_free(struct profile_sym *ps);
/* The name of kernel address ip. */
const char *profile_sym_kernel(struct profile_sym *ps, uint64_t ip);
/*
 * The name of the function at file offset off of the ELF file path (as
 * the kernel's mmap record names it); "[vdso]" and other pseudo-files
 * are named as they are.
 */
const char *profile_sym_file(struct profile_sym *ps, const char *path,
			     uint64_t off);
/* The name of an address outside every known mapping. */
const char *profile_sym_unknown(struct profile_sym *ps);
/*
 * Append what could not be named, e.g. "12 of 3000 frames without a
 * symbol: [unknown] 10, [libc.so.6] 2", to out; nothing when all were.
 */
void profile_sym_missing(const struct profile_sym *ps, struct strbuf *out);

#endif /* MMCMP_PROFILE_SYM_H */
