#!/usr/bin/env python3
"""genf.py - Fortran MPI bindings generated from mpi.h, the one table.

    python3 libsmap/lang/genf.py libsmap/include/mpi.h GENDIR INCDIR

reads every SMPI_API(ret, Name, (args)) prototype, every handle typedef,
every predefined handle and every integer constant of mpi.h and writes

    GENDIR/mpi_handles.c   MPI_<Handle>_c2f/_f2c for every handle type, the
                           handle tables, MPI_Status_c2f/_f2c
    GENDIR/mpi_fortran.c   pmpi_<name>_ (and weak mpi_<name>_) for gfortran
    GENDIR/mpi.f90         module mpi (compiled into INCDIR/mpi.mod by make)
    INCDIR/mpif.h          the same constants for INCLUDE 'mpif.h'

so a function or a predefined handle added to mpi.h appears in Fortran at
the next build, and nothing can drift.  Prototypes whose argument shapes
have no rule here (callbacks, argv vectors) are listed at the top of
mpi_fortran.c and in the docs' count instead of being bound wrongly.
See docs/languages.md.
"""

import os
import re
import sys

# Arguments that are LOGICAL in Fortran (C int or int *).
LOGICAL = {"flag", "commute", "reorder", "periods", "remain_dims", "weighted"}
# void * arguments the C function writes an address into: Fortran passes an
# INTEGER(KIND=MPI_ADDRESS_KIND) to receive it.
ADDRESS_OUT = {"baseptr", "buffer_addr"}
# MPI-1's names whose addresses, extents and displacements are default
# INTEGERs in Fortran (their MPI-2 replacements take MPI_ADDRESS_KIND).
MPI1_INT_AINT = {"Address", "Type_extent", "Type_lb", "Type_ub", "Type_hvector", "Type_hindexed",
                 "Type_struct"}
# Sentinels: Fortran names a COMMON block, C the value it stands for.
SENTINELS = [
    # (Fortran name, common block, C macro, Fortran declaration suffix)
    ("MPI_BOTTOM", "smpi_fbottom", "MPI_BOTTOM", ""),
    ("MPI_IN_PLACE", "smpi_finplace", "MPI_IN_PLACE", ""),
    ("MPI_STATUS_IGNORE", "smpi_fstatus_ignore", "MPI_STATUS_IGNORE", "(MPI_STATUS_SIZE)"),
    ("MPI_STATUSES_IGNORE", "smpi_fstatuses_ignore", "MPI_STATUSES_IGNORE",
     "(MPI_STATUS_SIZE,1)"),
    ("MPI_ERRCODES_IGNORE", "smpi_ferrcodes_ignore", "MPI_ERRCODES_IGNORE", "(1)"),
    ("MPI_UNWEIGHTED", "smpi_funweighted", "MPI_UNWEIGHTED", "(1)"),
    ("MPI_WEIGHTS_EMPTY", "smpi_fweights_empty", "MPI_WEIGHTS_EMPTY", "(1)"),
    ("MPI_BUFFER_AUTOMATIC", "smpi_fbuffer_automatic", "MPI_BUFFER_AUTOMATIC", ""),
]
# NULL handles of mpi.h and their type, predefined handles by type (parse).
NULLS = {}
PRE = {}
# Fortran user functions of MPI_Op_create: a fixed pool of C trampolines.
OP_SLOTS = 32


def die(msg):
    sys.stderr.write("genf.py: %s\n" % msg)
    sys.exit(1)


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Arg:
    """One C parameter: its declaration, name and shape."""

    def __init__(self, decl):
        self.decl = " ".join(decl.split())
        m = re.match(r"^(.*?)(\w+)\s*((?:\[[^\]]*\])*)$", self.decl)
        if not m or "(" in self.decl:
            self.name, self.base, self.ptr, self.arr, self.const = "", self.decl, 0, 0, False
            self.fnptr = "(" in self.decl
            return
        self.fnptr = False
        head, self.name, arrs = m.group(1), m.group(2), m.group(3)
        self.const = "const" in head.split()
        self.ptr = head.count("*")
        self.arr = arrs.count("[")
        self.base = " ".join(w for w in head.replace("*", " ").split() if w != "const")


class Api:
    def __init__(self, ret, name, args):
        self.ret = ret.strip()
        self.name = name.strip()
        a = args.strip()[1:-1].strip()
        self.args = [] if a in ("", "void") else [Arg(x) for x in split_args(a)]


def parse(path):
    text = strip_comments(open(path).read())
    apis = []
    for m in re.finditer(r"^SMPI_API\(\s*([^,]+),\s*(\w+),\s*(\(.*?\))\)\s*$", text, re.M | re.S):
        apis.append(Api(m.group(1), m.group(2), m.group(3)))
    handles = {}          # struct tag -> handle type
    for m in re.finditer(r"typedef\s+struct\s+(\w+)\s*\*\s*(MPI_\w+)\s*;", text):
        handles[m.group(1)] = m.group(2)
    objs = {}             # predefined object -> handle type
    for m in re.finditer(r"extern\s+struct\s+(\w+)\s+([^;]+);", text):
        if m.group(1) in handles:
            for o in m.group(2).split(","):
                objs[o.strip()] = handles[m.group(1)]
    ints, pre = {}, PRE    # name -> value; handle type -> [(name, object)]
    for m in re.finditer(r"^#define\s+(MPI_\w+)\s+(.+?)\s*$", text, re.M):
        name, val = m.group(1), m.group(2).strip()
        h = re.match(r"^\(&(\w+)\)$", val)
        if h and h.group(1) in objs:
            pre.setdefault(objs[h.group(1)], []).append((name, h.group(1)))
            continue
        n = re.match(r"^\(\((MPI_\w+)\)0\)$", val)
        if n and n.group(1) in handles.values():
            ints[name] = 0
            NULLS[name] = n.group(1)
            continue
        # Another name for a predefined handle (MPI_C_COMPLEX).
        alias = [(lst, o) for lst in pre.values() for n2, o in lst if n2 == val]
        if alias:
            alias[0][0].append((name, alias[0][1]))
            continue
        expr = re.sub(r"\b(MPI_\w+)\b", lambda x: str(ints.get(x.group(1), "X")), val)
        if re.match(r"^[\s()0-9a-fA-FxX+\-*|<]+$", expr):
            try:
                v = eval(expr, {})
            except Exception:
                continue
            if isinstance(v, int) and -2**31 <= v < 2**31:
                ints[name] = v
    status = re.search(r"typedef\s+struct\s+MPI_Status\s*\{(.*?)\}\s*MPI_Status\s*;", text, re.S)
    if not status:
        die("no struct MPI_Status in %s" % path)
    fields, words = [], 0
    for f in status.group(1).split(";"):
        f = " ".join(f.split())
        if not f:
            continue
        size = 2 if re.search(r"long long|MPI_Count|int64|MPI_Aint|MPI_Offset", f) else 1
        if size == 2 and words % 2:
            words += 1
        fields.append((f.split()[-1], words))
        words += size
    return apis, handles, pre, ints, fields, words


# ---------------------------------------------------------------- handles

def kind_of(htype):
    return htype[len("MPI_"):].lower()


def gen_handles(handles, pre, ints):
    types = sorted(set(handles.values()))
    o = ["/* Generated by libsmap/lang/genf.py from mpi.h: do not edit. */",
         '#include "mpi.h"', '#include "fhandle.h"', ""]
    for t in types:
        k = kind_of(t)
        names = pre.get(t, [])
        objs = []
        for n, ob in names:
            if ob not in objs:
                objs.append(ob)
        o.append("static void *const fh_pre_%s[] = {" % k)
        o.append("\tNULL,")
        for ob in objs:
            o.append("\t&%s," % ob)
        o.append("};")
        o.append("struct fh_table smpi_fh_%s = {" % k)
        o.append("\t.pre = fh_pre_%s, .npre = sizeof(fh_pre_%s) / sizeof(void *)," % (k, k))
        o.append("};")
        c = "Type" if t == "MPI_Datatype" else t[4:]	# the standard's names
        o.append("MPI_Fint PMPI_%s_c2f(%s h) { return smpi_fh_c2f(&smpi_fh_%s, h); }"
                 % (c, t, k))
        o.append("%s PMPI_%s_f2c(MPI_Fint f) { return (%s)smpi_fh_f2c(&smpi_fh_%s, f); }"
                 % (t, c, t, k))
        for s in ("c2f", "f2c"):
            o.append('extern __typeof__(PMPI_%s_%s) MPI_%s_%s __attribute__((weak, alias("PMPI_%s_%s")));'
                     % (c, s, c, s, c, s))
        o.append("")
    return "\n".join(o) + "\n"


def handle_index(handles, pre):
    """Fortran value of every predefined handle name, per the tables above."""
    idx = {}
    for t in sorted(set(handles.values())):
        objs = []
        for n, ob in pre.get(t, []):
            if ob not in objs:
                objs.append(ob)
        for n, ob in pre.get(t, []):
            idx[n] = objs.index(ob) + 1
    return idx


# ---------------------------------------------------------------- bindings

HANDLE_FREE = ("free",)


class Binding:
    """C text of one Fortran binding, or the reason there is none."""

    def __init__(self, api, htypes):
        self.api, self.htypes = api, htypes
        self.params, self.pre, self.call, self.post, self.lens = [], [], [], [], []
        self.why = None
        for i, a in enumerate(api.args):
            self.arg(i, a)
            if self.why:
                return

    def releases(self):
        """1 when a handle the call turns to NULL was freed or completed, so
        its Fortran number goes back to the table (never for outputs only:
        their incoming value is garbage)."""
        n = self.api.name
        return int(n.endswith("_free") or re.match(r"^(Wait|Test)(all|any|some)?$", n) is not None)

    def count_for(self, i):
        """The C expression of the length of handle array argument i."""
        names = [a.name for a in self.api.args]
        if "comm" in names:
            if self.api.name.lower().startswith(("alltoallw", "ialltoallw", "neighbor_alltoallw",
                                                 "ineighbor_alltoallw")):
                return "smpi_fh_comm_size(comm)"
        for n in ("count", "incount", "n", "max_datatypes"):
            if n in names[:i]:
                return "(*%s)" % n
        if "comm" in names and self.api.name.lower().startswith(("alltoallw", "ialltoallw")):
            return "smpi_fh_comm_size(comm)"
        self.why = "no count before handle array %s" % self.api.args[i].name
        return None

    def arg(self, i, a):
        n = a.name
        if a.fnptr or not n:
            self.why = "callback argument"
            return
        if a.base == "char" and (a.ptr + a.arr) == 1:
            self.params.append("%schar *%s" % ("const " if a.const else "", n))
            self.lens.append("size_t %s_len" % n)
            # Info keys and values lose leading blanks too (MPI 3.1 9.1),
            # and a value not found leaves the variable as it was.
            info = self.api.name.startswith("Info_")
            if a.const:
                self.pre.append("\tchar *c_%s = smpi_fstr_in%s(%s, %s_len);"
                                % (n, "_info" if info else "", n, n))
                self.call.append("c_%s" % n)
                self.post.append("\tfree(c_%s);" % n)
            else:
                self.pre.append("\tchar *c_%s = smpi_fstr_buf(%s_len);" % (n, n))
                self.call.append("c_%s" % n)
                if info and "flag" in [x.name for x in self.api.args]:
                    self.post.append("\tif (!err && *flag)\n\t\tsmpi_fstr_out(%s, %s_len, c_%s);\n"
                                     "\telse\n\t\tfree(c_%s);" % (n, n, n, n))
                else:
                    self.post.append("\tsmpi_fstr_out(%s, %s_len, c_%s);" % (n, n, n))
            return
        if a.base == "char":
            self.why = "argument vector %s" % n
            return
        if a.base in self.htypes:
            t = a.base
            k = kind_of(t)
            if a.ptr + a.arr == 0:
                self.params.append("MPI_Fint *%s" % n)
                self.pre.append("\t%s c_%s = (%s)smpi_fh_f2c(&smpi_fh_%s, *%s);" % (t, n, t, k, n))
                self.call.append("c_%s" % n)
            elif a.arr == 0 and a.ptr == 1:
                self.params.append("MPI_Fint *%s" % n)
                self.pre.append("\t%s c_%s = (%s)smpi_fh_f2c(&smpi_fh_%s, *%s);" % (t, n, t, k, n))
                self.call.append("&c_%s" % n)
                self.pre.append("\t%s o_%s = c_%s;" % (t, n, n))
                self.post.append("\t*%s = smpi_fh_update(&smpi_fh_%s, *%s, o_%s, c_%s, %d);"
                                 % (n, k, n, n, n, self.releases()))
            else:
                cnt = self.count_for(i)
                if cnt is None:
                    return
                self.params.append("MPI_Fint *%s" % n)
                self.pre.append("\tint n_%s = %s;" % (n, cnt))
                self.pre.append("\t%s *c_%s = (%s *)smpi_fh_array(&smpi_fh_%s, %s, n_%s);"
                                % (t, n, t, k, n, n))
                self.call.append("c_%s" % n)
                if not a.const:
                    self.post.append("\tsmpi_fh_array_back(&smpi_fh_%s, %s, (void **)c_%s, n_%s, %d);"
                                     % (k, n, n, n, self.releases()))
                self.post.append("\tsmpi_fh_array_free(c_%s, n_%s);" % (n, n))
            return
        if a.base == "MPI_Status":
            self.params.append("MPI_Fint *%s" % n)
            ign = "MPI_STATUSES_IGNORE" if a.arr else "MPI_STATUS_IGNORE"
            sent = "smpi_fstatuses_ignore_" if a.arr else "smpi_fstatus_ignore_"
            self.call.append("(MPI_Status *)(%s == (MPI_Fint *)&%s ? (void *)%s : (void *)%s)"
                             % (n, sent, ign, n))
            return
        if a.base == "void" and a.ptr == 1:
            self.params.append("%svoid *%s" % ("const " if a.const else "", n))
            if n in ADDRESS_OUT:
                self.call.append(n)
            elif n == "attribute_val":
                self.why = "attribute value"
            else:
                self.call.append("smpi_fbuf(%s)" % n)
            return
        if a.base == "MPI_Aint" and self.api.name in MPI1_INT_AINT:
            self.mpi1_aint(i, a)
            return
        if a.base in ("int", "MPI_Aint", "MPI_Count", "MPI_Offset", "MPI_Fint"):
            if a.ptr + a.arr == 0:
                self.params.append("%s *%s" % ("MPI_Fint" if a.base == "int" else a.base, n))
                self.call.append("*%s" % n)
            else:
                self.params.append("%s%s *%s" % ("const " if a.const else "", a.base, n))
                if a.base == "int" and a.arr and a.arr == 2:
                    self.call.append("(int (*)[3])%s" % n)
                elif a.base == "int":
                    self.call.append("(%sint *)smpi_fints(%s)" % ("const " if a.const else "", n))
                else:
                    self.call.append(n)
            return
        self.why = ("callback %s" % a.name) if a.base.endswith(("_function", "_fn")) \
            else "argument type %s" % a.decl

    def mpi1_aint(self, i, a):
        """An MPI_Aint argument that MPI-1's Fortran passes as INTEGER."""
        n = a.name
        if a.ptr + a.arr == 0:
            self.params.append("MPI_Fint *%s" % n)
            self.call.append("(MPI_Aint)*%s" % n)
        elif a.arr:
            cnt = self.count_for(i)
            if cnt is None:
                return
            self.params.append("const MPI_Fint *%s" % n)
            self.pre.append("\tMPI_Aint *c_%s = smpi_faints(%s, %s);" % (n, n, cnt))
            self.call.append("c_%s" % n)
            self.post.append("\tfree(c_%s);" % n)
        else:
            self.params.append("MPI_Fint *%s" % n)
            self.pre.append("\tMPI_Aint c_%s = 0;" % n)
            self.call.append("&c_%s" % n)
            self.post.append('\tif (err == MPI_SUCCESS)\n\t\terr = smpi_faint_out(%s, c_%s, "MPI_%s");'
                             % (n, n, self.api.name))

    def text(self):
        api = self.api
        low = api.name.lower()
        ret = api.ret
        ps = list(self.params)
        if ret == "int":
            ps.append("MPI_Fint *ierr")
        ps += self.lens
        proto = "%s pmpi_%s_(%s)" % ("void" if ret == "int" else ret, low,
                                    ", ".join(ps) if ps else "void")
        body = [proto, "{"]
        body += self.pre
        call = "PMPI_%s(%s)" % (api.name, ", ".join(self.call))
        if ret == "int":
            body.append("\tint err = %s;" % call)
        else:
            body.append("\t%s r = %s;" % (ret, call))
        body += self.post
        names = [a.name for a in api.args]
        if re.match(r"^(Wait|Test)any$", api.name) and "index" in names:
            body.append("\tif (err == MPI_SUCCESS && *index != MPI_UNDEFINED)\n\t\t(*index)++;")
        if re.match(r"^(Wait|Test)some$", api.name) and "array_of_indices" in names:
            body.append("\tif (err == MPI_SUCCESS && *outcount != MPI_UNDEFINED)\n"
                        "\t\tfor (int i = 0; i < *outcount; i++)\n\t\t\tarray_of_indices[i]++;")
        body.append("\tsmpi_fret(ierr, err);" if ret == "int" else "\treturn r;")
        body.append("}")
        body.append('extern __typeof__(pmpi_%s_) mpi_%s_ __attribute__((weak, alias("pmpi_%s_")));'
                    % (low, low, low))
        return "\n".join(body) + "\n"


SPECIAL = {}


def special(name):
    def reg(fn):
        SPECIAL[name] = fn
        return fn
    return reg


@special("Init")
def _init():
    return """void pmpi_init_(MPI_Fint *ierr)
{
	smpi_fret(ierr, PMPI_Init(NULL, NULL));
}
"""


@special("Init_thread")
def _init_thread():
    return """void pmpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
	smpi_fret(ierr, PMPI_Init_thread(NULL, NULL, *required, provided));
}
"""


# The status conversions of MPI 3.1 17.2.5: mpi_f08's type(MPI_Status) and
# an INTEGER status array are the same six words (fhandle.c).
@special("Status_f082f")
def _status_f082f():
    return """void pmpi_status_f082f_(const MPI_F08_status *f08_status, MPI_Fint *f_status, MPI_Fint *ierr)
{
	smpi_fret(ierr, PMPI_Status_f082f(f08_status, f_status));
}
"""


@special("Status_f2f08")
def _status_f2f08():
    return """void pmpi_status_f2f08_(const MPI_Fint *f_status, MPI_F08_status *f08_status, MPI_Fint *ierr)
{
	smpi_fret(ierr, PMPI_Status_f2f08(f_status, f08_status));
}
"""


# Fortran generalized requests: query(extra, status, ierr), free(extra,
# ierr) and cancel(extra, complete, ierr), by reference; the Fortran
# functions and extra_state ride in a record that free's call ends.  The
# callbacks get the program's own extra_state variable, as in MPICH (its
# f77 greqf counts on free_fn's change to it).
@special("Grequest_start")
def _grequest_start():
    return """typedef void smpi_fgq_fn(MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void smpi_fgf_fn(MPI_Aint *, MPI_Fint *);
typedef void smpi_fgc_fn(MPI_Aint *, MPI_Fint *, MPI_Fint *);
struct fgreq {
	smpi_fgq_fn *query;
	smpi_fgf_fn *free;
	smpi_fgc_fn *cancel;
	MPI_Aint *extra;
};

static int fgreq_query(void *es, MPI_Status *status)
{
	struct fgreq *r = es;
	MPI_Fint ierr = MPI_SUCCESS;

	/* A Fortran status is the C one's words (MPI_Status_c2f). */
	r->query(r->extra, (MPI_Fint *)status, &ierr);
	return ierr;
}

static int fgreq_free(void *es)
{
	struct fgreq *r = es;
	MPI_Fint ierr = MPI_SUCCESS;

	r->free(r->extra, &ierr);
	free(r);
	return ierr;
}

static int fgreq_cancel(void *es, int complete)
{
	struct fgreq *r = es;
	MPI_Fint ierr = MPI_SUCCESS, c = complete;

	r->cancel(r->extra, &c, &ierr);
	return ierr;
}

void pmpi_grequest_start_(smpi_fgq_fn *query_fn, smpi_fgf_fn *free_fn, smpi_fgc_fn *cancel_fn,
			  MPI_Aint *extra_state, MPI_Fint *request, MPI_Fint *ierr)
{
	struct fgreq *r = malloc(sizeof *r);
	MPI_Request c = MPI_REQUEST_NULL;
	int err;

	if (!r) {
		smpi_fret(ierr, MPI_ERR_NO_MEM);
		return;
	}
	*r = (struct fgreq){ query_fn, free_fn, cancel_fn, extra_state };
	err = PMPI_Grequest_start(fgreq_query, fgreq_free, fgreq_cancel, r, &c);
	if (err)
		free(r);
	*request = smpi_fh_update(&smpi_fh_request, *request, MPI_REQUEST_NULL, c, 0);
	smpi_fret(ierr, err);
}
"""


# Fortran's MPI_INFO_GET_STRING counts characters without a NUL: buflen
# says how many to copy (0: none) and comes back as the value's length.
# Only "native" and "external32" exist here (docs/fileio.md), so no
# conversion function is ever called: the binding hands the name over and
# the call fails as it does in C, naming the representation.
@special("Register_datarep")
def _register_datarep():
    return """void pmpi_register_datarep_(const char *datarep, void *read_conversion_fn,
			     void *write_conversion_fn, void *dtype_file_extent_fn,
			     MPI_Aint *extra_state, MPI_Fint *ierr, size_t datarep_len)
{
	char *c_datarep = smpi_fstr_in(datarep, datarep_len);

	(void)read_conversion_fn;
	(void)write_conversion_fn;
	(void)dtype_file_extent_fn;
	*ierr = PMPI_Register_datarep(c_datarep, NULL, NULL, NULL, (void *)*extra_state);
	free(c_datarep);
}
"""


@special("Info_get_string")
def _info_get_string():
    return """void pmpi_info_get_string_(MPI_Fint *info, const char *key, MPI_Fint *buflen, char *value,
			   int *flag, MPI_Fint *ierr, size_t key_len, size_t value_len)
{
	MPI_Info c_info = (MPI_Info)smpi_fh_f2c(&smpi_fh_info, *info);
	char *c_key = smpi_fstr_in_info(key, key_len), *c_value = smpi_fstr_buf(value_len);
	int len = MPI_MAX_INFO_VAL + 1, err;

	err = PMPI_Info_get_string(c_info, c_key, &len, c_value, flag);
	free(c_key);
	if (!err && *flag) {
		size_t n = *buflen < 0 ? 0 : (size_t)*buflen;

		if (n > value_len)
			n = value_len;
		if (n) {
			c_value[n < (size_t)len - 1 ? n : (size_t)len - 1] = 0;
			smpi_fstr_out(value, value_len, c_value);
		} else {
			free(c_value);
		}
		*buflen = len - 1;
	} else {
		free(c_value);
	}
	smpi_fret(ierr, err);
}
"""


# Fortran's MPI_INFO_CREATE_ENV takes no argument vector; MPI_INIT passes
# none either, so the two agree.
@special("Info_create_env")
def _info_create_env():
    return """void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierr)
{
	MPI_Info c = MPI_INFO_NULL;
	int err = PMPI_Info_create_env(0, NULL, &c);

	*info = smpi_fh_update(&smpi_fh_info, *info, MPI_INFO_NULL, c, 0);
	smpi_fret(ierr, err);
}
"""


@special("Op_create")
def _op_create():
    o = ["/* Fortran reduction functions: f(invec, inoutvec, len, datatype) with an",
         " * INTEGER datatype; each gets one of a fixed pool of C trampolines. */",
         "typedef void smpi_fop_fn(void *, void *, MPI_Fint *, MPI_Fint *);",
         "static smpi_fop_fn *fop_fn[%d];" % OP_SLOTS]
    for i in range(OP_SLOTS):
        o.append("static void fop_%d(void *a, void *b, int *len, MPI_Datatype *t)" % i)
        o.append("{\n\tMPI_Fint ft = smpi_fh_c2f(&smpi_fh_datatype, *t);\n")
        o.append("\tfop_fn[%d](a, b, len, &ft);\n}" % i)
    o.append("static MPI_User_function *const fop_tramp[%d] = {" % OP_SLOTS)
    o.append("\t" + ", ".join("fop_%d" % i for i in range(OP_SLOTS)))
    o.append("};")
    o.append("""void pmpi_op_create_(smpi_fop_fn *fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierr)
{
	MPI_Op c_op = MPI_OP_NULL;
	int i;

	for (i = 0; i < %d && fop_fn[i] && fop_fn[i] != fn; i++)
		;
	if (i == %d) {
		smpi_fret(ierr, PMPI_Op_create(NULL, *commute, &c_op));
		*op = 0;
		return;
	}
	fop_fn[i] = fn;
	smpi_fret(ierr, PMPI_Op_create(fop_tramp[i], *commute, &c_op));
	*op = smpi_fh_c2f(&smpi_fh_op, c_op);
}""" % (OP_SLOTS, OP_SLOTS))
    return "\n".join(o) + "\n"


EH_SLOTS = 16


def errhandler_create(obj, htype):
    """MPI_<Obj>_create_errhandler for Fortran: the handler is called as
    h(obj, code) with INTEGERs, through one of a fixed pool of trampolines."""
    k = kind_of(htype)
    o = ["/* Fortran %s error handlers: h(%s, code), INTEGERs by reference. */" % (obj, k),
         "typedef void smpi_feh_%s_fn(MPI_Fint *, MPI_Fint *);" % k,
         "static smpi_feh_%s_fn *feh_%s_fn[%d];" % (k, k, EH_SLOTS)]
    for i in range(EH_SLOTS):
        o += ["static void feh_%s_%d(%s *h, int *code, ...)" % (k, i, htype),
              "{\n\tMPI_Fint f = smpi_fh_c2f(&smpi_fh_%s, *h);\n" % k,
              "\tfeh_%s_fn[%d](&f, code);\n}" % (k, i)]
    o.append("static MPI_%s_errhandler_function *const feh_%s_tramp[%d] = {" % (obj, k, EH_SLOTS))
    o.append("\t" + ", ".join("feh_%s_%d" % (k, i) for i in range(EH_SLOTS)))
    o.append("};")
    o.append("""void pmpi_%(l)s_create_errhandler_(smpi_feh_%(k)s_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierr)
{
	MPI_Errhandler c = MPI_ERRHANDLER_NULL;
	int i;

	for (i = 0; i < %(n)d && feh_%(k)s_fn[i] && feh_%(k)s_fn[i] != fn; i++)
		;
	if (i == %(n)d) {
		smpi_fret(ierr, PMPI_%(o)s_create_errhandler(NULL, &c));
		*errhandler = 0;
		return;
	}
	feh_%(k)s_fn[i] = fn;
	smpi_fret(ierr, PMPI_%(o)s_create_errhandler(feh_%(k)s_tramp[i], &c));
	*errhandler = smpi_fh_c2f(&smpi_fh_errhandler, c);
}""" % {"l": obj.lower(), "k": k, "n": EH_SLOTS, "o": obj})
    return "\n".join(o) + "\n"


def keyval_create(obj, htype):
    """MPI_<Obj>_create_keyval for Fortran.  The Fortran copy and delete
    functions and the Fortran extra_state ride in a record passed to C as
    extra_state, so two trampolines serve every keyval; attribute values
    are the INTEGER(KIND=MPI_ADDRESS_KIND) values themselves, as the
    bindings of set_attr/get_attr keep them.  The predefined Fortran
    functions (MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, ...) are Fortran-
    callable functions below, so they need no special case."""
    k = kind_of(htype)
    return """/* Fortran %(o)s keyvals: copy(old, keyval, extra, in, out, flag, ierr)
 * and delete(obj, keyval, attr, extra, ierr), all by reference. */
typedef void smpi_fcopy_%(k)s_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *,
				MPI_Fint *, MPI_Fint *);
typedef void smpi_fdel_%(k)s_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
struct fkey_%(k)s {
	smpi_fcopy_%(k)s_fn *copy;
	smpi_fdel_%(k)s_fn *del;
	MPI_Aint extra;
};

static int fkey_%(k)s_copy(%(h)s old, int keyval, void *es, void *in, void *out, int *flag)
{
	struct fkey_%(k)s *r = es;
	MPI_Fint f = smpi_fh_c2f(&smpi_fh_%(k)s, old), fk = keyval, fflag = 0, ierr = MPI_SUCCESS;
	MPI_Aint fin = (MPI_Aint)in, fout = 0;

	r->copy(&f, &fk, &r->extra, &fin, &fout, &fflag, &ierr);
	*flag = fflag != 0;
	if (fflag)
		*(void **)out = (void *)fout;
	return ierr;
}

static int fkey_%(k)s_del(%(h)s h, int keyval, void *attr, void *es)
{
	struct fkey_%(k)s *r = es;
	MPI_Fint f = smpi_fh_c2f(&smpi_fh_%(k)s, h), fk = keyval, ierr = MPI_SUCCESS;
	MPI_Aint fattr = (MPI_Aint)attr;

	r->del(&f, &fk, &fattr, &r->extra, &ierr);
	return ierr;
}

void pmpi_%(l)s_create_keyval_(smpi_fcopy_%(k)s_fn *copy_fn, smpi_fdel_%(k)s_fn *delete_fn,
			     MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierr)
{
	struct fkey_%(k)s *r = malloc(sizeof *r);

	if (!r) {
		smpi_fret(ierr, MPI_ERR_NO_MEM);
		return;
	}
	r->copy = copy_fn;
	r->del = delete_fn;
	r->extra = *extra_state;
	smpi_fret(ierr, PMPI_%(o)s_create_keyval(fkey_%(k)s_copy, fkey_%(k)s_del, keyval, r));
}
""" % {"o": obj, "k": k, "h": htype, "l": obj.lower()}


# The predefined Fortran attribute functions, Fortran-callable.
F_ATTR_FNS = """
static void fattr_null_copy(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in,
			    MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
	(void)old, (void)keyval, (void)extra, (void)in, (void)out;
	*flag = 0;
	*ierr = MPI_SUCCESS;
}

static void fattr_dup(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in,
		      MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
	(void)old, (void)keyval, (void)extra;
	*out = *in;
	*flag = 1;
	*ierr = MPI_SUCCESS;
}

static void fattr_null_delete(MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *attr, MPI_Aint *extra,
			      MPI_Fint *ierr)
{
	(void)h, (void)keyval, (void)attr, (void)extra;
	*ierr = MPI_SUCCESS;
}
"""
F_ATTR_NAMES = [("null_copy", "fattr_null_copy"), ("comm_null_copy", "fattr_null_copy"),
                ("win_null_copy", "fattr_null_copy"), ("type_null_copy", "fattr_null_copy"),
                ("dup", "fattr_dup"), ("comm_dup", "fattr_dup"), ("win_dup", "fattr_dup"),
                ("type_dup", "fattr_dup"), ("null_delete", "fattr_null_delete"),
                ("comm_null_delete", "fattr_null_delete"), ("win_null_delete", "fattr_null_delete"),
                ("type_null_delete", "fattr_null_delete")]


def f_attr_fns():
    o = [F_ATTR_FNS]
    for n, fn in F_ATTR_NAMES:
        o.append('extern __typeof__(%s) mpi_%s_fn_ __attribute__((alias("%s")));' % (fn, n, fn))
    return "\n".join(o) + "\n"


def c_handle(obj):
    """The C handle type of an attribute's object (comm, win, type)."""
    return "MPI_Datatype" if obj == "type" else "MPI_" + obj.capitalize()


def attr_kind(obj):
    return {"comm": "SMPI_ATTR_COMM", "win": "SMPI_ATTR_WIN", "type": "SMPI_ATTR_TYPE"}[obj]


def attr_get(obj, keys):
    return """void pmpi_%(o)s_get_attr_(MPI_Fint *%(o)s, MPI_Fint *keyval, MPI_Aint *attribute_val,
			 MPI_Fint *flag, MPI_Fint *ierr)
{
	%(T)s c = (%(T)s)smpi_fh_f2c(&smpi_fh_%(t)s, *%(o)s);
	void *v = NULL;
	int err = PMPI_%(O)s_get_attr(c, *keyval, &v, flag);

	smpi_fret(ierr, err);
	if (err != MPI_SUCCESS || !*flag)
		return;
	/* Predefined keys point at the value (C), and so does C's get of an
	 * attribute set from Fortran; Fortran gets the value. */
	switch (*keyval) {
%(keys)s
	default:
		*attribute_val = smpi_attr_is_fortran(%(K)s, c, *keyval) ? *(MPI_Aint *)v
									 : (MPI_Aint)v;
	}
}
""" % {"o": obj, "O": obj.capitalize(), "keys": keys, "T": c_handle(obj),
       "t": c_handle(obj)[4:].lower(), "K": attr_kind(obj)}


def attr_set(obj):
    return """void pmpi_%(o)s_set_attr_(MPI_Fint *%(o)s, MPI_Fint *keyval, MPI_Aint *attribute_val,
			 MPI_Fint *ierr)
{
	%(T)s c = (%(T)s)smpi_fh_f2c(&smpi_fh_%(t)s, *%(o)s);
	int err = PMPI_%(O)s_set_attr(c, *keyval, (void *)*attribute_val);

	if (err == MPI_SUCCESS)
		smpi_attr_mark_fortran(%(K)s, c, *keyval);
	smpi_fret(ierr, err);
}
""" % {"o": obj, "O": obj.capitalize(), "T": c_handle(obj), "t": c_handle(obj)[4:].lower(),
       "K": attr_kind(obj)}


# MPI-1's attribute calls and MPI_Pcontrol in Fortran, onto the MPI-2
# bindings above them in the file: INTEGER attribute values and extra
# state (the callbacks get 8-byte slots, whose low half is the INTEGER),
# and a PCONTROL without IERROR, as MPI 3.1 section 14.2.4 binds it.
MPI1_ONTO = {
    "Attr_put": """void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
		    MPI_Fint *ierr)
{
	MPI_Aint v = *attribute_val;

	pmpi_comm_set_attr_(comm, keyval, &v, ierr);
}
""",
    "Attr_get": """void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
		    MPI_Fint *flag, MPI_Fint *ierr)
{
	MPI_Aint v = 0;
	MPI_Fint err;

	pmpi_comm_get_attr_(comm, keyval, &v, flag, &err);
	if (err == MPI_SUCCESS && *flag)
		*attribute_val = (MPI_Fint)v;
	smpi_fret(ierr, err);
}
""",
    "Keyval_create": """void pmpi_keyval_create_(smpi_fcopy_comm_fn *copy_fn, smpi_fdel_comm_fn *delete_fn,
			 MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *ierr)
{
	MPI_Aint extra = *extra_state;

	pmpi_comm_create_keyval_(copy_fn, delete_fn, keyval, &extra, ierr);
}
""",
    "Errhandler_create": """void pmpi_errhandler_create_(smpi_feh_comm_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierr)
{
	pmpi_comm_create_errhandler_(fn, errhandler, ierr);
}
""",
    "Pcontrol": """void pmpi_pcontrol_(MPI_Fint *level)
{
	PMPI_Pcontrol(*level);
}
""",
}


# MPI_F_SYNC_REG (MPI 3.1 section 17.1.7), Fortran only: a call the
# compiler cannot see into, so a buffer that a pending nonblocking call
# writes is read from memory again after the Wait that completes it (what
# MPI_ASYNC_PROTECTS_NONBLOCKING = .FALSE. leaves to the program).
F_SYNC_REG = """void pmpi_f_sync_reg_(void *buf)
{
	(void)buf;
}
extern __typeof__(pmpi_f_sync_reg_) mpi_f_sync_reg_ __attribute__((weak, alias("pmpi_f_sync_reg_")));
"""


def keys_case(ints, names, how):
    return "\n".join("\tcase %s:\n\t\t*attribute_val = %s;\n\t\tbreak;" % (k, how)
                     for k in names if k in ints)


def gen_fortran(apis, handles, ints):
    htypes = set(handles.values())
    done, skipped, body = [], [], []
    comm_keys = ["MPI_TAG_UB", "MPI_HOST", "MPI_IO", "MPI_WTIME_IS_GLOBAL", "MPI_UNIVERSE_SIZE",
                 "MPI_APPNUM", "MPI_LASTUSEDCODE"]
    for api in apis:
        n = api.name
        if n.endswith("_c2f") or n.endswith("_f2c") or n.startswith("Status_c2f"):
            continue
        if n.startswith("T_"):
            skipped.append((n, "the tools interface has C bindings only (MPI 3.1 section 14.3)"))
            continue
        if n == "Status_f082c":
            skipped.append((n, "converts to C's status: C only (MPI 4.0 19.3.5)"))
            continue
        if n in MPI1_ONTO:
            continue
        if n in SPECIAL:
            body.append(SPECIAL[n]())
            body.append('extern __typeof__(pmpi_%s_) mpi_%s_ __attribute__((weak, alias("pmpi_%s_")));\n'
                        % (n.lower(), n.lower(), n.lower()))
            done.append(n)
            continue
        m = re.match(r"^(\w+)_create_errhandler$", n)
        mk = re.match(r"^(\w+)_create_keyval$", n)
        htk = mk and ("MPI_Datatype" if mk.group(1) == "Type" else "MPI_" + mk.group(1))
        if m and "MPI_" + m.group(1) in htypes and len(api.args) == 2:
            body.append(errhandler_create(m.group(1), "MPI_" + m.group(1)))
        elif mk and htk in htypes and len(api.args) == 4:
            body.append(keyval_create(mk.group(1), htk))
        elif n in ("Comm_get_attr", "Win_get_attr", "Type_get_attr"):
            obj = n.split("_")[0].lower()
            if obj == "comm":
                keys = keys_case(ints, comm_keys, "*(int *)v")
            elif obj == "win":
                keys = "\n".join([keys_case(ints, ["MPI_WIN_SIZE"], "*(MPI_Aint *)v"),
                                  keys_case(ints, ["MPI_WIN_DISP_UNIT", "MPI_WIN_CREATE_FLAVOR",
                                                   "MPI_WIN_MODEL"], "*(int *)v")])
            else:
                keys = ""
            body.append(attr_get(obj, keys))
        elif n in ("Comm_set_attr", "Win_set_attr", "Type_set_attr"):
            body.append(attr_set(n.split("_")[0].lower()))
        elif api.ret not in ("int", "double", "MPI_Aint"):
            skipped.append((n, "returns %s" % api.ret))
            continue
        else:
            b = Binding(api, htypes)
            if b.why:
                skipped.append((n, b.why))
                continue
            body.append(b.text())
            done.append(n)
            continue
        body.append('extern __typeof__(pmpi_%s_) mpi_%s_ __attribute__((weak, alias("pmpi_%s_")));\n'
                    % (n.lower(), n.lower(), n.lower()))
        done.append(n)
    for n in sorted(MPI1_ONTO):
        body.append(MPI1_ONTO[n])
        body.append('extern __typeof__(pmpi_%s_) mpi_%s_ __attribute__((weak, alias("pmpi_%s_")));\n'
                    % (n.lower(), n.lower(), n.lower()))
        done.append(n)
    head = ["/*", " * Generated by libsmap/lang/genf.py from mpi.h: do not edit.",
            " * %d MPI functions bound for gfortran; not bound (no rule for their" % len(set(done)),
            " * argument shapes): %s" % ("" if skipped else "none")]
    for n, why in skipped:
        head.append(" *   MPI_%s: %s" % (n, why))
    head += [" */", '#include <stdlib.h>', '#include "mpi.h"', '#include "fhandle.h"', ""]
    head += ["extern struct fh_table smpi_fh_%s;" % kind_of(t) for t in sorted(htypes)] + [""]
    head.append(f_attr_fns())
    head.append(F_SYNC_REG)
    # Sentinel COMMON blocks: their addresses are what the bindings compare.
    return "\n".join(head) + "\n" + "\n".join(body), len(set(done)), skipped


# ---------------------------------------------------------------- Fortran

def f_consts(ints, idx, fields, words):
    c = dict(ints)
    c.update(idx)
    c["MPI_STATUS_SIZE"] = words
    for name, off in fields:
        if name.startswith("MPI_"):
            c[name] = off + 1
    c.update({"MPI_ADDRESS_KIND": 8, "MPI_OFFSET_KIND": 8, "MPI_COUNT_KIND": 8,
              "MPI_INTEGER_KIND": 4})
    return c


# MPI 3.1 section 17.1.6: choice buffers are passed as contiguous
# sequences (gfortran makes a copy of a non-contiguous section around the
# call), so a section in a nonblocking call is not supported, and
# ASYNCHRONOUS does not protect a pending buffer.
F_LOGICALS = [("MPI_SUBARRAYS_SUPPORTED", False), ("MPI_ASYNC_PROTECTS_NONBLOCKING", False)]


def gen_mpif(c):
    o = ["! mpif.h - MPI for Fortran (libsmap): generated by libsmap/lang/genf.py",
         "! from mpi.h; do not edit.  Valid in fixed and free source form."]
    for k in sorted(c):
        # a name too long for 72 columns stays in the module only (fixed
        # form has no continuation both forms accept)
        if len("      PARAMETER (%s=%d)" % (k, c[k])) > 72:
            continue
        o.append("      INTEGER %s" % k)
        o.append("      PARAMETER (%s=%d)" % (k, c[k]))
    for f, blk, _, dim in SENTINELS:
        o.append("      INTEGER %s%s" % (f, dim))
        o.append("      COMMON /%s/ %s" % (blk.upper(), f))
    for f in ("MPI_WTIME", "MPI_WTICK", "PMPI_WTIME", "PMPI_WTICK"):
        o.append("      DOUBLE PRECISION %s" % f)
        o.append("      EXTERNAL %s" % f)
    for f in ("MPI_AINT_ADD", "MPI_AINT_DIFF"):
        o.append("      INTEGER(KIND=MPI_ADDRESS_KIND) %s" % f)
        o.append("      EXTERNAL %s" % f)
    for n, _ in F_ATTR_NAMES:
        o.append("      EXTERNAL MPI_%s_FN" % n.upper())
    for n, v in F_LOGICALS:
        o.append("      LOGICAL %s" % n)
        o.append("      PARAMETER (%s=%s)" % (n, ".TRUE." if v else ".FALSE."))
    for line in o:
        if len(line) > 72:
            die("mpif.h line longer than 72 columns: %s" % line)
    return "\n".join(o) + "\n"


# MPI_SIZEOF (MPI 3.1 section 17.1.9): a generic over the intrinsic types
# and kinds gfortran has, scalars and arrays alike (assumed rank).
SIZEOF_TYPES = [("integer", k) for k in (1, 2, 4, 8, 16)] + \
    [("real", k) for k in (4, 8, 10, 16)] + [("complex", k) for k in (4, 8, 10, 16)] + \
    [("logical", k) for k in (1, 2, 4, 8)] + [("character", 1)]


def sizeof_procs(optional):
    """The generic interfaces MPI_SIZEOF and PMPI_SIZEOF, and their module
    procedures (to follow "contains")."""
    names = ["smpi_sizeof_%s%d" % (t[0], k) for t, k in SIZEOF_TYPES]
    iface = []
    for g in ("MPI_SIZEOF", "PMPI_SIZEOF"):
        iface += ["  interface %s" % g] + ["    module procedure %s" % n for n in names] + \
                 ["  end interface"]
    procs = []
    for (t, k), n in zip(SIZEOF_TYPES, names):
        decl = "character(len=*, kind=%d)" % k if t == "character" else "%s(kind=%d)" % (t, k)
        # A character's size is one character's, as for MPI_CHARACTER.
        size = "kind(x)" if t == "character" else "storage_size(x) / 8"
        procs += ["  subroutine %s(x, size, ierror)" % n,
                  "    %s, dimension(..), intent(in) :: x" % decl,
                  "    integer, intent(out) :: size",
                  "    integer%s :: ierror" % (", optional" if optional else ""),
                  "    size = %s" % size,
                  "    %sierror = 0" % ("if (present(ierror)) " if optional else ""),
                  "  end subroutine"]
    return iface, procs


def status_type(c):
    """type(MPI_Status), in module mpi too (for MPI_Status_f2f08/f082f):
    with bind(C) the two modules' definitions are one type (Fortran 2008
    4.5.2.4)."""
    return ["  type, bind(C) :: MPI_Status",
            "    integer :: MPI_SOURCE, MPI_TAG, MPI_ERROR",
            "    integer :: smpi_internal(%d)" % (c["MPI_STATUS_SIZE"] - 3), "  end type"]


def gen_module(c):
    o = ["! module mpi (libsmap): generated by libsmap/lang/genf.py from mpi.h; do not edit.",
         "! Constants, the special buffers and the typed functions; subroutines are",
         "! called without explicit interfaces (choice buffers of any type).",
         "module mpi", "  implicit none", "  public"]
    kinds = ["MPI_ADDRESS_KIND", "MPI_OFFSET_KIND", "MPI_COUNT_KIND", "MPI_INTEGER_KIND"]
    for k in kinds:
        o.append("  integer, parameter :: %s = %d" % (k, c[k]))
    for k in sorted(c):
        if k not in kinds:
            o.append("  integer, parameter :: %s = %d" % (k, c[k]))
    for f, blk, _, dim in SENTINELS:
        o.append("  integer :: %s%s" % (f, dim))
        o.append("  common /%s/ %s" % (blk, f))
    o += status_type(c)
    o += ["  interface",
          "    double precision function MPI_WTIME()", "    end function",
          "    double precision function MPI_WTICK()", "    end function",
          "    double precision function PMPI_WTIME()", "    end function",
          "    double precision function PMPI_WTICK()", "    end function",
          "    integer(kind=8) function MPI_AINT_ADD(base, disp)",
          "      integer(kind=8) :: base, disp", "    end function",
          "    integer(kind=8) function MPI_AINT_DIFF(addr1, addr2)",
          "      integer(kind=8) :: addr1, addr2", "    end function",
          "  end interface"]
    o += ["  external :: MPI_%s_FN" % n.upper() for n, _ in F_ATTR_NAMES]
    o += ["  logical, parameter :: %s = .%s." % (n, "true" if v else "false") for n, v in F_LOGICALS]
    iface, procs = sizeof_procs(False)
    o += iface + ["contains"] + procs
    o += ["end module mpi"]
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------- mpi_f08

def f08_logical(n, dim=""):
    """A LOGICAL argument of a bind(C) interface in mpi_f08.  A default
    LOGICAL is not interoperable (gfortran accepts it only as an extension,
    an error under -std=f2008 or f2018), and the C side reads the C int a
    Fortran LOGICAL is; assumed type passes the caller's LOGICAL by address
    as it is."""
    return "type(*)%s :: %s" % (", dimension(*)" if dim else "", n)


def f08_type(a, htypes, mpi1=False, bindc=True):
    """The Fortran declaration of C argument a in mpi_f08, or None (mpi1:
    of an MPI1_INT_AINT routine; bindc: of a bind(C) interface, not of a
    Fortran wrapper)."""
    n, dim = a.name, ""
    if a.arr == 2:
        dim = "(3,*)"
    elif a.arr:
        dim = "(*)"
    if a.base in htypes:
        return "type(%s) :: %s%s" % (a.base, n, dim)
    if a.base == "MPI_Status":
        return "type(MPI_Status) :: %s%s" % (n, dim)
    if a.base == "MPI_Aint" and mpi1:
        return "integer :: %s%s" % (n, dim)
    if a.base in ("MPI_Aint", "MPI_Count", "MPI_Offset"):
        return "integer(kind=%s) :: %s%s" % ({"MPI_Aint": "MPI_ADDRESS_KIND",
                                              "MPI_Count": "MPI_COUNT_KIND",
                                              "MPI_Offset": "MPI_OFFSET_KIND"}[a.base], n, dim)
    if a.base in ("int", "MPI_Fint"):
        if n in LOGICAL:
            return f08_logical(n, dim) if bindc else "logical :: %s%s" % (n, dim)
        return "integer :: %s%s" % (n, dim)
    if a.base == "void" and a.ptr == 1:
        if n in ADDRESS_OUT:
            # mpi_f08 hands addresses out as TYPE(C_PTR) (MPI 3.1 17.1.2)
            return "type(c_ptr) :: %s" % n
        if n == "attribute_val":
            return "integer(kind=MPI_ADDRESS_KIND) :: %s" % n
        return "!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s\n      type(*), dimension(*) :: %s" % (n, n)
    if a.base == "char" and a.ptr + a.arr == 1:
        return "character(len=*) :: %s" % n
    return None


def gen_f08(apis, handles, c, idx, skipped):
    """module mpi_f08: handle types, typed constants, and every bound routine
    with an optional ierror: bind(C) interfaces straight onto the C bindings
    (a bind(C) type of one INTEGER is passed as that INTEGER), and Fortran
    wrappers for the routines with strings (gfortran's hidden lengths)."""
    htypes = sorted(set(handles.values()))
    skip = dict(skipped)
    o = ["! module mpi_f08 (libsmap): generated by libsmap/lang/genf.py from mpi.h; do not edit.",
         "module mpi_f08", "  use, intrinsic :: iso_c_binding, only: c_double, c_ptr",
         "  implicit none", "  public", "  private :: c_double"]
    for t in htypes:
        o += ["  type, bind(C) :: %s" % t, "    integer :: MPI_VAL", "  end type"]
    o += status_type(c)
    kinds = ["MPI_ADDRESS_KIND", "MPI_OFFSET_KIND", "MPI_COUNT_KIND", "MPI_INTEGER_KIND"]
    for k in kinds:
        o.append("  integer, parameter :: %s = %d" % (k, c[k]))
    htype_of = {}
    for t, lst in PRE.items():
        for n, _ in lst:
            htype_of[n] = t
    htype_of.update(NULLS)
    for k in sorted(c):
        if k in kinds:
            continue
        if k in htype_of:
            o.append("  type(%s), parameter :: %s = %s(%d)" % (htype_of[k], k, htype_of[k], c[k]))
        else:
            o.append("  integer, parameter :: %s = %d" % (k, c[k]))
    for f, blk, _, dim in SENTINELS:
        if "STATUS" in f:
            o.append("  type(MPI_Status) :: %s%s" % (f, "(1)" if "STATUSES" in f else ""))
        else:
            o.append("  integer :: %s%s" % (f, dim))
        o.append("  common /%s/ %s" % (blk, f))
    o.append("  interface operator(==)")
    o += ["    module procedure smpi_eq_%s" % kind_of(t) for t in htypes]
    o.append("  end interface")
    o.append("  interface operator(/=)")
    o += ["    module procedure smpi_ne_%s" % kind_of(t) for t in htypes]
    o.append("  end interface")
    ifaces, wrappers, generic, sig = [], [], {}, {}
    specials = {
        "Init": ["integer, optional :: ierror"],
        "Init_thread": ["integer :: required", "integer :: provided",
                        "integer, optional :: ierror"],
        "Info_create_env": ["type(MPI_Info) :: info", "integer, optional :: ierror"],
        "Status_f082f": ["type(MPI_Status) :: f08_status", "integer :: f_status(MPI_STATUS_SIZE)",
                         "integer, optional :: ierror"],
        "Status_f2f08": ["integer :: f_status(MPI_STATUS_SIZE)", "type(MPI_Status) :: f08_status",
                         "integer, optional :: ierror"],
    }
    for obj in ("Comm", "Win", "Type"):
        h = "MPI_Datatype" if obj == "Type" else "MPI_" + obj
        specials[obj + "_get_attr"] = ["type(%s) :: %s" % (h, obj.lower()), "integer :: keyval",
                                       "integer(kind=MPI_ADDRESS_KIND) :: attribute_val",
                                       f08_logical("flag"), "integer, optional :: ierror"]
        specials[obj + "_set_attr"] = ["type(%s) :: %s" % (h, obj.lower()), "integer :: keyval",
                                       "integer(kind=MPI_ADDRESS_KIND) :: attribute_val",
                                       "integer, optional :: ierror"]
    names = set(a.name for a in apis)
    if "Op_create" in names:
        # f08's user function takes type(c_ptr) by value: the C trampoline's
        # (void *, void *, int *, MPI_Fint *) call fits it as it fits mpif.h's
        wrappers += ["  subroutine MPI_Op_create(user_fn, commute, op, ierror)",
                     "    external :: user_fn", "    logical :: commute", "    type(MPI_Op) :: op",
                     "    integer, optional :: ierror", "    integer :: e",
                     "    call PMPI_Op_create(user_fn, commute, op%MPI_VAL, e)",
                     "    if (present(ierror)) ierror = e", "  end subroutine"]
        skip["Op_create"] = "wrapped"
    if "Grequest_start" in names:
        wrappers += ["  subroutine MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, "
                     "request, ierror)",
                     "    external :: query_fn, free_fn, cancel_fn",
                     "    integer(kind=MPI_ADDRESS_KIND) :: extra_state",
                     "    type(MPI_Request) :: request", "    integer, optional :: ierror",
                     "    integer :: e",
                     "    call PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, "
                     "request%MPI_VAL, e)",
                     "    if (present(ierror)) ierror = e", "  end subroutine"]
        skip["Grequest_start"] = "wrapped"
    if "Register_datarep" in names:
        wrappers += ["  subroutine MPI_Register_datarep(datarep, read_conversion_fn, "
                     "write_conversion_fn, dtype_file_extent_fn, extra_state, ierror)",
                     "    character(len=*) :: datarep",
                     "    external :: read_conversion_fn, write_conversion_fn, dtype_file_extent_fn",
                     "    integer(kind=MPI_ADDRESS_KIND) :: extra_state",
                     "    integer, optional :: ierror", "    integer :: e",
                     "    call PMPI_Register_datarep(datarep, read_conversion_fn, "
                     "write_conversion_fn, dtype_file_extent_fn, extra_state, e)",
                     "    if (present(ierror)) ierror = e", "  end subroutine"]
        skip["Register_datarep"] = "wrapped"
    # A character datarep before assumed-type buffers: mpif.h's binding
    # serves them; no f08 wrapper yet.
    for n in ("Pack_external", "Unpack_external", "Pack_external_c", "Unpack_external_c"):
        skip.setdefault(n, "datarep string before choice buffers")
    for n in sorted(names):
        m = re.match(r"^(\w+)_create_errhandler$", n)
        if m and "MPI_" + m.group(1) in htypes:
            wrappers += ["  subroutine MPI_%s(errhandler_fn, errhandler, ierror)" % n,
                         "    external :: errhandler_fn", "    type(MPI_Errhandler) :: errhandler",
                         "    integer, optional :: ierror", "    integer :: e",
                         "    call PMPI_%s(errhandler_fn, errhandler%%MPI_VAL, e)" % n,
                         "    if (present(ierror)) ierror = e", "  end subroutine"]
            skip[n] = "wrapped"
    for api in apis:
        n = api.name
        # MPI-1's INTEGER attribute calls are not in mpi_f08 (MPI 3.1 17.1.1)
        if n in skip or n in MPI1_ONTO or n.endswith("_c2f") or n.endswith("_f2c"):
            continue
        low = n.lower()
        if n in specials:
            if n not in names:
                continue
            decls = specials[n]
            dummies = [d.split("::")[1].strip().split("(")[0] for d in decls]
            ifaces += ["    subroutine MPI_%s(%s) bind(C, name=\"pmpi_%s_\")" % (n, ", ".join(dummies), low),
                       "      import"] + ["      " + d for d in decls] + ["    end subroutine"]
            continue
        # Routines with strings get a Fortran wrapper, not a bind(C) interface.
        wrapped = any(a.base == "char" for a in api.args)
        decls = [f08_type(a, set(htypes), api.name in MPI1_INT_AINT, not wrapped)
                 for a in api.args]
        if any(d is None for d in decls):
            continue
        dummies = [a.name for a in api.args]
        if api.ret in ("double", "MPI_Aint"):
            rt = "real(c_double)" if api.ret == "double" else "integer(kind=MPI_ADDRESS_KIND)"
            # and its profiling name (PMPI_Wtime ...) onto the same symbol
            for pre in ("MPI", "PMPI"):
                ifaces += ["    function %s_%s(%s) bind(C, name=\"pmpi_%s_\") result(r)"
                           % (pre, n, ", ".join(dummies), low), "      import"] + \
                          ["      " + d for d in decls] + ["      %s :: r" % rt, "    end function"]
            continue
        if wrapped:
            if any(a.base in htypes and a.ptr + a.arr and a.arr for a in api.args):
                continue
            call = []
            for a in api.args:
                call.append("%s%%MPI_VAL" % a.name if a.base in htypes else a.name)
            wrappers += ["  subroutine MPI_%s(%s)" % (n, ", ".join(dummies + ["ierror"]))] + \
                        ["    " + d for d in decls] + \
                        ["    integer, optional :: ierror", "    integer :: e",
                         "    call PMPI_%s(%s)" % (n, ", ".join(call + ["e"])),
                         "    if (present(ierror)) ierror = e", "  end subroutine"]
            continue
        # A large-count routine and its int form are one generic name
        # whose specifics are MPI_<name>_f08 and _f08c (MPI 4.0 19.2).
        base = n[:-2] if n.endswith("_c") and n[:-2] in names else n
        large = base != n or n + "_c" in names
        # Where MPI_Count and MPI_Aint are one kind the forms coincide:
        # the int form serves both (MPI 4.0 19.2).
        sig[n] = [re.sub(r"::\s*\w+", "::", re.sub(r"MPI_(ADDRESS|COUNT|OFFSET)_KIND", "8", d))
                  for d in decls]
        if base != n and sig.get(base) == sig[n]:
            continue
        spec = "MPI_%s_f08%s" % (base, "c" if base != n else "") if large else "MPI_" + n
        body = ["    subroutine %s(%s) bind(C, name=\"pmpi_%s_\")"
                % (spec, ", ".join(dummies + ["ierror"]), low), "      import"] + \
               ["      " + d for d in decls] + ["      integer, optional :: ierror",
                                                   "    end subroutine"]
        if large:
            generic.setdefault(base, []).extend(body)
        else:
            ifaces += body
    ifaces += ["    subroutine MPI_F_sync_reg(buf) bind(C, name=\"pmpi_f_sync_reg_\")",
               "      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf", "      type(*), dimension(*) :: buf",
               "    end subroutine"]
    iface, procs = sizeof_procs(True)
    # The predefined attribute callbacks, as in module mpi.
    o += ["  external :: MPI_%s_FN" % n.upper() for n, _ in F_ATTR_NAMES]
    o += ["  logical, parameter :: %s = .%s." % (n, "true" if v else "false") for n, v in F_LOGICALS]
    o += ["  interface"] + ifaces + ["  end interface"]
    for base in sorted(generic):
        o += ["  interface MPI_%s" % base] + generic[base] + ["  end interface"]
    o += iface + ["contains"] + procs
    for t in htypes:
        k = kind_of(t)
        for op, fn in (("==", "eq"), ("/=", "ne")):
            o += ["  elemental logical function smpi_%s_%s(a, b)" % (fn, k),
                  "    type(%s), intent(in) :: a, b" % t,
                  "    smpi_%s_%s = a%%MPI_VAL %s b%%MPI_VAL" % (fn, k, op),
                  "  end function"]
    o += wrappers
    o.append("end module mpi_f08")
    # free form: continue long lines
    out = []
    for line in o:
        while len(line) > 130:
            cut = line.rfind(", ", 0, 120)
            out.append(line[:cut + 1] + " &")
            line = "        " + line[cut + 2:]
        out.append(line)
    return "\n".join(out) + "\n"


def gen_sentinels(words):
    o = ["/* The Fortran sentinels' COMMON blocks, as large as Fortran declares them. */"]
    for f, blk, cm, dim in SENTINELS:
        o.append("MPI_Fint %s_[%d] __attribute__((aligned(16)));"
                 % (blk, words if "STATUS" in f else 1))
    return "\n".join(o) + "\n"


def main():
    if len(sys.argv) != 4:
        die("usage: genf.py mpi.h GENDIR INCDIR")
    apis, handles, pre, ints, fields, words = parse(sys.argv[1])
    gen, inc = sys.argv[2], sys.argv[3]
    os.makedirs(gen, exist_ok=True)
    os.makedirs(inc, exist_ok=True)
    idx = handle_index(handles, pre)
    c = f_consts(ints, idx, fields, words)
    fort, nbound, skipped = gen_fortran(apis, handles, ints)
    files = {
        os.path.join(gen, "mpi_handles.c"): gen_handles(handles, pre, ints) + "\n" + gen_sentinels(words),
        os.path.join(gen, "mpi_fortran.c"): fort,
        os.path.join(gen, "mpi.f90"): gen_module(c),
        os.path.join(gen, "mpi_f08.f90"): gen_f08(apis, handles, c, idx, skipped),
        os.path.join(inc, "mpif.h"): gen_mpif(c),
    }
    for path, text in files.items():
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            with open(path, "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
