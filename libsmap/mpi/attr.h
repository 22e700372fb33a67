/*
 * attr.h - attribute caching (attr.c): keyvals per kind of object, h the
 * object's handle; callbacks are kept untyped and called as their kind's.
 * The Fortran bindings (libsmap/lang) use it too.
 */
#ifndef SMPI_ATTR_H
#define SMPI_ATTR_H

enum { SMPI_ATTR_COMM, SMPI_ATTR_WIN, SMPI_ATTR_TYPE, SMPI_ATTR_KINDS };
typedef void (*smpi_attr_fn)(void);
int smpi_keyval_create(int kind, smpi_attr_fn copy, smpi_attr_fn del, void *extra, int *keyval,
		       const char *fn);
int smpi_keyval_free(int kind, int *keyval, const char *fn);
int smpi_attr_set(int kind, void *h, int keyval, void *val, const char *fn);
int smpi_attr_get(int kind, void *h, int keyval, void *val, int *flag, const char *fn);
int smpi_attr_delete(int kind, void *h, int keyval, const char *fn);
/* Copies from's attributes to to, as their copy callbacks say. */
int smpi_attr_copy(int kind, void *from, void *to, const char *fn);
/* Deletes them all, latest set first, whatever their callbacks return. */
void smpi_attr_clear(int kind, void *h);

/*
 * Across languages (MPI 3.1 section 17.2.7): an attribute set from Fortran
 * holds an integer, and C reads a pointer to it; Fortran reads a C-set
 * attribute's pointer as an integer.  The bindings mark what they set.
 */
void smpi_attr_mark_fortran(int kind, void *h, int keyval);
int smpi_attr_is_fortran(int kind, void *h, int keyval);

#endif
