/* profile-sym: kernel and ELF symbols for profile addresses. */
#include "profile-sym.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "strmap.h"
#include "strvec.h"
#include "util.h"

/*
 * A function: its start, its size (0: up to the next), name's index and
 * its place in the table it was read from.
 */
struct sym {
	uint64_t start, size;
	size_t name, seq;
};

struct sym_table {
	struct sym *v;
	size_t nr, alloc;
};

/* A loadable segment: file offsets [offset, offset + size) at vaddr. */
struct segment {
	uint64_t offset, size, vaddr;
};

/* An ELF file read once: its segments and function symbols. */
struct elf_file {
	char *path;
	struct segment *segs;
	size_t segs_nr, segs_alloc;
	struct sym_table syms;
	size_t file_name; /* "[basename]" */
	bool has_symtab;  /* not only .dynsym */
	bool pseudo;	  /* "[vdso]" and the like: no file */
	uint64_t missing;
};

struct profile_sym {
	struct strvec names; /* every name handed out, interned */
	struct strmap name_index;
	bool kernel_read;
	struct sym_table kernel;
	struct elf_file **files;
	size_t files_nr, files_alloc;
	struct strmap file_index;
	uint64_t frames, missing_kernel, missing_unknown;
	size_t unknown, kernel_name;
};

static size_t intern(struct profile_sym *ps, const char *name, size_t len)
{
	size_t i;

	if (strmap_get(&ps->name_index, name, len, &i))
		return i;
	i = ps->names.nr;
	strvec_push_nodup(&ps->names, xstrndup(name, len));
	strmap_put(&ps->name_index, name, len, i);
	return i;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The symbol of t that holds addr, or NULL. */
static const struct sym *sym_find(const struct sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* Of aliases, the first one listed (the sort keeps their order). */
	while (lo > 1 && t->v[lo - 2].start == t->v[lo - 1].start)
		lo--;
	if (t->v[lo - 1].size && addr >= t->v[lo - 1].start + t->v[lo - 1].size)
		return NULL;
	return &t->v[lo - 1];
}

static void sym_add(struct sym_table *t, uint64_t start, uint64_t size,
		    size_t name)
{
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr] = (struct sym){start, size, name, t->nr};
	t->nr++;
}

/* The text symbols of /proc/kallsyms; none when its addresses are hidden. */
static void read_kallsyms(struct profile_sym *ps)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];

	ps->kernel_read = true;
	if (!f)
		return;
	/* "ffffffff81000000 T _text [module]": address, type, name. */
	while (fgets(line, sizeof(line), f)) {
		char *end, name[256];
		unsigned long long addr = strtoull(line, &end, 16);
		size_t len;

		if (end == line || !addr || end[0] != ' ' ||
		    (end[1] != 't' && end[1] != 'T') || end[2] != ' ')
			continue;
		len = strcspn(end + 3, " \t\n");
		if (!len || len + 5 > sizeof(name))
			continue;
		memcpy(name, end + 3, len);
		memcpy(name + len, "_[k]", 5);
		sym_add(&ps->kernel, addr, 0, intern(ps, name, len + 4));
	}
	fclose(f);
	/* qsort() of no symbols would be handed a null pointer. */
	if (ps->kernel.nr)
		qsort(ps->kernel.v, ps->kernel.nr, sizeof(*ps->kernel.v),
		      sym_cmp);
}

const char *profile_sym_kernel(struct profile_sym *ps, uint64_t ip)
{
	const struct sym *s;

	if (!ps->kernel_read)
		read_kallsyms(ps);
	ps->frames++;
	s = sym_find(&ps->kernel, ip);
	if (!s) {
		ps->missing_kernel++;
		return ps->names.v[ps->kernel_name];
	}
	return ps->names.v[s->name];
}

/* The function symbols of symbol table sh (its strings in sh_link). */
static void elf_syms(struct profile_sym *ps, struct elf_file *ef,
		     const unsigned char *map, size_t size,
		     const Elf64_Shdr *shdrs, size_t shnum,
		     const Elf64_Shdr *sh)
{
	const Elf64_Shdr *strsh;
	size_t n;

	if (sh->sh_link >= shnum || sh->sh_entsize != sizeof(Elf64_Sym) ||
	    sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
		return;
	strsh = &shdrs[sh->sh_link];
	if (strsh->sh_offset > size || strsh->sh_size > size - strsh->sh_offset)
		return;
	n = sh->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < n; i++) {
		Elf64_Sym sym;
		const char *name;
		int type;

		memcpy(&sym, map + sh->sh_offset + i * sizeof(sym),
		       sizeof(sym));
		type = ELF64_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value ||
		    sym.st_name >= strsh->sh_size)
			continue;
		name = (const char *)map + strsh->sh_offset + sym.st_name;
		sym_add(&ef->syms, sym.st_value, sym.st_size,
			intern(ps, name,
			       strnlen(name, strsh->sh_size - sym.st_name)));
	}
}

/* Read the segments and symbols of the ELF image map of size bytes. */
static void elf_parse(struct profile_sym *ps, struct elf_file *ef,
		      const unsigned char *map, size_t size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *shdrs = NULL;
	const Elf64_Shdr *dynsym = NULL;

	if (size < sizeof(eh))
		return;
	memcpy(&eh, map, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
	    eh.e_phnum > (size - eh.e_phoff) / sizeof(Elf64_Phdr))
		return;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, map + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		ALLOC_GROW(ef->segs, ef->segs_nr + 1, ef->segs_alloc);
		ef->segs[ef->segs_nr++] =
			(struct segment){ph.p_offset, ph.p_filesz, ph.p_vaddr};
	}
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
	    eh.e_shnum > (size - eh.e_shoff) / sizeof(Elf64_Shdr))
		return;
	shdrs = xcalloc(eh.e_shnum + 1, sizeof(*shdrs));
	memcpy(shdrs, map + eh.e_shoff, eh.e_shnum * sizeof(*shdrs));
	for (size_t i = 0; i < eh.e_shnum; i++) {
		if (shdrs[i].sh_type == SHT_SYMTAB) {
			ef->has_symtab = true;
			elf_syms(ps, ef, map, size, shdrs, eh.e_shnum,
				 &shdrs[i]);
		} else if (shdrs[i].sh_type == SHT_DYNSYM) {
			dynsym = &shdrs[i];
		}
	}
	if (!ef->has_symtab && dynsym)
		elf_syms(ps, ef, map, size, shdrs, eh.e_shnum, dynsym);
	free(shdrs);
	if (ef->syms.nr)
		qsort(ef->syms.v, ef->syms.nr, sizeof(*ef->syms.v), sym_cmp);
}

static struct elf_file *elf_open(struct profile_sym *ps, const char *path)
{
	struct elf_file *ef = xcalloc(1, sizeof(*ef));
	const char *base = strrchr(path, '/');
	struct strbuf name = STRBUF_INIT;
	struct stat st;
	void *map;
	int fd;

	ef->path = xstrdup(path);
	ef->pseudo = *path == '[';
	if (ef->pseudo)
		strbuf_addstr(&name, path); /* [vdso], [anon:...] */
	else
		strbuf_addf(&name, "[%s]", base ? base + 1 : path);
	ef->file_name = intern(ps, name.buf, name.len);
	strbuf_release(&name);
	if (*path != '/')
		return ef; /* no file to read */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ef;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			   0);
		if (map != MAP_FAILED) {
			elf_parse(ps, ef, map, (size_t)st.st_size);
			munmap(map, (size_t)st.st_size);
		}
	}
	close(fd);
	return ef;
}

const char *profile_sym_file(struct profile_sym *ps, const char *path,
			     uint64_t off)
{
	struct elf_file *ef;
	const struct sym *s = NULL;
	size_t i;

	if (!strmap_get(&ps->file_index, path, strlen(path), &i)) {
		i = ps->files_nr;
		ALLOC_GROW(ps->files, ps->files_nr + 1, ps->files_alloc);
		ps->files[ps->files_nr++] = elf_open(ps, path);
		strmap_put(&ps->file_index, path, strlen(path), i);
	}
	ef = ps->files[i];
	ps->frames++;
	for (size_t k = 0; !s && k < ef->segs_nr; k++) {
		const struct segment *sg = &ef->segs[k];

		if (off >= sg->offset && off - sg->offset < sg->size)
			s = sym_find(&ef->syms, off - sg->offset + sg->vaddr);
	}
	if (!s) {
		ef->missing++;
		return ps->names.v[ef->file_name];
	}
	return ps->names.v[s->name];
}

const char *profile_sym_unknown(struct profile_sym *ps)
{
	ps->frames++;
	ps->missing_unknown++;
	return ps->names.v[ps->unknown];
}

struct profile_sym *profile_sym_new(void)
{
	struct profile_sym *ps = xcalloc(1, sizeof(*ps));

	strvec_init(&ps->names);
	ps->unknown = intern(ps, "[unknown]", 9);
	ps->kernel_name = intern(ps, "[kernel]", 8);
	return ps;
}

void profile_sym_missing(const struct profile_sym *ps, struct strbuf *out)
{
	uint64_t missing = ps->missing_kernel + ps->missing_unknown;
	size_t len;

	for (size_t i = 0; i < ps->files_nr; i++)
		missing += ps->files[i]->missing;
	if (!missing)
		return;
	strbuf_addf(out, "%llu of %llu frames without a symbol:",
		    (unsigned long long)missing,
		    (unsigned long long)ps->frames);
	len = out->len;
	if (ps->missing_unknown)
		strbuf_addf(out, " [unknown] %llu",
			    (unsigned long long)ps->missing_unknown);
	if (ps->missing_kernel)
		strbuf_addf(out,
			    "%s [kernel] %llu (no /proc/kallsyms addresses)",
			    out->len > len ? "," : "",
			    (unsigned long long)ps->missing_kernel);
	for (size_t i = 0; i < ps->files_nr; i++) {
		const struct elf_file *ef = ps->files[i];

		if (!ef->missing)
			continue;
		strbuf_addf(out, "%s %s %llu%s", out->len > len ? "," : "",
			    ps->names.v[ef->file_name],
			    (unsigned long long)ef->missing,
			    ef->has_symtab || ef->pseudo ? ""
			    : ef->syms.nr ? " (.dynsym only: no debug symbols)"
			    : ef->segs_nr ? " (no symbol table)"
					  : " (not readable)");
	}
}

void profile_sym_free(struct profile_sym *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->files_nr; i++) {
		free(ps->files[i]->path);
		free(ps->files[i]->segs);
		free(ps->files[i]->syms.v);
		free(ps->files[i]);
	}
	free(ps->files);
	free(ps->kernel.v);
	strmap_clear(&ps->file_index);
	strmap_clear(&ps->name_index);
	strvec_clear(&ps->names);
	free(ps);
}
