#ifndef MMCMP_BANNED_H
#define MMCMP_BANNED_H

/*
 * banned: library functions that are too easy to misuse. Using one is a
 * compile error; use strbuf, snprintf and parse-num.h instead (git's
 * banned.h). Included last by util.h, so system headers are not affected.
 */

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gets
#define gets(x) BANNED(gets)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atof
#define atof(x) BANNED(atof)

#endif /* MMCMP_BANNED_H */
