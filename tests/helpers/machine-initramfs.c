/*
 * machine-initramfs OUT INIT BUSYBOX PROGRAM...: write the initramfs of
 * a machine that runs mmcmp itself (initramfs_add_machine()) to OUT, with
 * the script INIT as /init, for the campaign tests' QEMU machine.
 */
#include <stdio.h>

#include "initramfs.h"
#include "strbuf.h"

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, init = STRBUF_INIT;
	struct initramfs *ir = initramfs_new();
	int ret = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: machine-initramfs OUT INIT BUSYBOX "
				"PROGRAM...\n");
		goto out;
	}
	if (strbuf_read_file(&init, argv[2], &err) ||
	    initramfs_add_machine(ir, init.buf, argv[3], argv + 4, &err) ||
	    initramfs_write(ir, argv[1], &err)) {
		fprintf(stderr, "machine-initramfs: %s\n", err.buf);
		goto out;
	}
	ret = 0;
out:
	initramfs_free(ir);
	strbuf_release(&init);
	strbuf_release(&err);
	return ret;
}
