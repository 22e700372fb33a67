/*
 * mpi.h - MPI for smapos (libsmap): the standard C interface, MPI-3.1.
 *
 * Handles are pointers to library objects; the predefined ones are the
 * addresses of objects inside libsmap, so they are address constants
 * usable in static initialisers and comparable with ==.  Every function
 * exists as PMPI_X, and MPI_X is a weak alias of it: a profiling library
 * defines MPI_X itself and calls PMPI_X.
 *
 * See docs/mpi.md for what is implemented and what fails with
 * MPI_ERR_UNSUPPORTED_OPERATION.
 */
#ifndef MPI_H
#define MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION		3
#define MPI_SUBVERSION		1

typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef struct smpi_comm *MPI_Comm;
typedef struct smpi_group *MPI_Group;
typedef struct smpi_type *MPI_Datatype;
typedef struct smpi_op *MPI_Op;
typedef struct smpi_req *MPI_Request;
typedef struct smpi_errh *MPI_Errhandler;
typedef struct smpi_info *MPI_Info;
typedef struct smpi_message *MPI_Message;
typedef struct smpi_win *MPI_Win;
typedef struct smpi_file *MPI_File;
typedef struct smpi_session *MPI_Session;

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int smpi_cancelled;
	MPI_Count smpi_bytes;
} MPI_Status;

typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
			       MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
				 MPI_Datatype *datatype);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Comm_errhandler_function MPI_Handler_function;	/* MPI-1 */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval,
					void *extra_state, void *attr_in,
					void *attr_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval,
					  void *attr, void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval,
					void *extra_state, void *attr_in,
					void *attr_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval,
					  void *attr, void *extra_state);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef void MPI_File_errhandler_function(MPI_File *file, int *code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *code, ...);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int keyval, void *extra_state,
				       void *attr_in, void *attr_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int keyval, void *attr,
					 void *extra_state);

/* Predefined objects: defined in libsmap, named only through the macros. */
extern struct smpi_comm smpi_comm_world, smpi_comm_self;
extern struct smpi_group smpi_group_empty;
extern struct smpi_info smpi_info_env;
extern struct smpi_message smpi_message_no_proc;
extern struct smpi_type smpi_type_char,
	smpi_type_signed_char,
	smpi_type_unsigned_char,
	smpi_type_byte,
	smpi_type_wchar,
	smpi_type_short,
	smpi_type_unsigned_short,
	smpi_type_int,
	smpi_type_unsigned,
	smpi_type_long,
	smpi_type_unsigned_long,
	smpi_type_long_long_int,
	smpi_type_unsigned_long_long,
	smpi_type_float,
	smpi_type_double,
	smpi_type_long_double,
	smpi_type_c_bool,
	smpi_type_int8_t,
	smpi_type_int16_t,
	smpi_type_int32_t,
	smpi_type_int64_t,
	smpi_type_uint8_t,
	smpi_type_uint16_t,
	smpi_type_uint32_t,
	smpi_type_uint64_t,
	smpi_type_aint,
	smpi_type_offset,
	smpi_type_count,
	smpi_type_c_float_complex,
	smpi_type_c_double_complex,
	smpi_type_c_long_double_complex,
	smpi_type_packed,
	smpi_type_float_int,
	smpi_type_double_int,
	smpi_type_long_int,
	smpi_type_2int,
	smpi_type_short_int,
	smpi_type_long_double_int,
	/* Fortran's named types, in C too (MPI 3.1 section 3.2.2) */
	smpi_type_f_integer,
	smpi_type_f_real,
	smpi_type_f_double_precision,
	smpi_type_f_complex,
	smpi_type_f_double_complex,
	smpi_type_f_logical,
	smpi_type_f_character,
	smpi_type_f_integer1,
	smpi_type_f_integer2,
	smpi_type_f_integer4,
	smpi_type_f_integer8,
	smpi_type_f_real4,
	smpi_type_f_real8,
	smpi_type_f_complex8,
	smpi_type_f_complex16,
	smpi_type_f_2integer,
	smpi_type_f_integer16,
	smpi_type_f_real16,
	smpi_type_f_complex32,
	smpi_type_f_2real,
	smpi_type_f_2double_precision,
	smpi_type_lb,
	smpi_type_ub,
	/* C++'s, in C too (MPI 3.1 section 3.2.2) */
	smpi_type_cxx_bool,
	smpi_type_cxx_float_complex,
	smpi_type_cxx_double_complex,
	smpi_type_cxx_long_double_complex;
extern struct smpi_op smpi_op_max,
	smpi_op_min,
	smpi_op_sum,
	smpi_op_prod,
	smpi_op_land,
	smpi_op_band,
	smpi_op_lor,
	smpi_op_bor,
	smpi_op_lxor,
	smpi_op_bxor,
	smpi_op_minloc,
	smpi_op_maxloc,
	smpi_op_replace,
	smpi_op_no_op;
extern struct smpi_errh smpi_errh_fatal, smpi_errh_return, smpi_errh_abort;
extern char smpi_in_place[], smpi_unweighted[];

#define MPI_COMM_NULL		((MPI_Comm)0)
#define MPI_COMM_WORLD		(&smpi_comm_world)
#define MPI_COMM_SELF		(&smpi_comm_self)
#define MPI_GROUP_NULL		((MPI_Group)0)
#define MPI_GROUP_EMPTY		(&smpi_group_empty)
#define MPI_DATATYPE_NULL	((MPI_Datatype)0)
#define MPI_OP_NULL		((MPI_Op)0)
#define MPI_REQUEST_NULL	((MPI_Request)0)
#define MPI_ERRHANDLER_NULL	((MPI_Errhandler)0)
#define MPI_INFO_NULL		((MPI_Info)0)
#define MPI_INFO_ENV		(&smpi_info_env)
#define MPI_MESSAGE_NULL	((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC	(&smpi_message_no_proc)
#define MPI_WIN_NULL		((MPI_Win)0)
#define MPI_SESSION_NULL	((MPI_Session)0)
#define MPI_ERRORS_ARE_FATAL	(&smpi_errh_fatal)
#define MPI_ERRORS_RETURN	(&smpi_errh_return)
/* MPI 4.0: end the processes of the communicator's group - here, as
 * ERRORS_ARE_FATAL does, the job. */
#define MPI_ERRORS_ABORT	(&smpi_errh_abort)

/* Predefined datatypes (libsmap/mpi/type.c). */
#define MPI_CHAR		(&smpi_type_char)
#define MPI_SIGNED_CHAR		(&smpi_type_signed_char)
#define MPI_UNSIGNED_CHAR	(&smpi_type_unsigned_char)
#define MPI_BYTE		(&smpi_type_byte)
#define MPI_WCHAR		(&smpi_type_wchar)
#define MPI_SHORT		(&smpi_type_short)
#define MPI_UNSIGNED_SHORT	(&smpi_type_unsigned_short)
#define MPI_INT			(&smpi_type_int)
#define MPI_UNSIGNED		(&smpi_type_unsigned)
#define MPI_LONG		(&smpi_type_long)
#define MPI_UNSIGNED_LONG	(&smpi_type_unsigned_long)
#define MPI_LONG_LONG_INT	(&smpi_type_long_long_int)
#define MPI_LONG_LONG		MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG	(&smpi_type_unsigned_long_long)
#define MPI_FLOAT		(&smpi_type_float)
#define MPI_DOUBLE		(&smpi_type_double)
#define MPI_LONG_DOUBLE		(&smpi_type_long_double)
#define MPI_C_BOOL		(&smpi_type_c_bool)
#define MPI_INT8_T		(&smpi_type_int8_t)
#define MPI_INT16_T		(&smpi_type_int16_t)
#define MPI_INT32_T		(&smpi_type_int32_t)
#define MPI_INT64_T		(&smpi_type_int64_t)
#define MPI_UINT8_T		(&smpi_type_uint8_t)
#define MPI_UINT16_T		(&smpi_type_uint16_t)
#define MPI_UINT32_T		(&smpi_type_uint32_t)
#define MPI_UINT64_T		(&smpi_type_uint64_t)
#define MPI_AINT		(&smpi_type_aint)
#define MPI_OFFSET		(&smpi_type_offset)
#define MPI_COUNT		(&smpi_type_count)
#define MPI_C_FLOAT_COMPLEX	(&smpi_type_c_float_complex)
#define MPI_C_COMPLEX		MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX	(&smpi_type_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX (&smpi_type_c_long_double_complex)
#define MPI_PACKED		(&smpi_type_packed)
#define MPI_FLOAT_INT		(&smpi_type_float_int)
#define MPI_DOUBLE_INT		(&smpi_type_double_int)
#define MPI_LONG_INT		(&smpi_type_long_int)
#define MPI_2INT		(&smpi_type_2int)
#define MPI_SHORT_INT		(&smpi_type_short_int)
#define MPI_LONG_DOUBLE_INT	(&smpi_type_long_double_int)
/* Fortran's named types: each its own handle (and name), of the C type
 * gfortran lays it out as (default INTEGER, REAL and LOGICAL: 4 bytes). */
#define MPI_INTEGER		(&smpi_type_f_integer)
#define MPI_REAL		(&smpi_type_f_real)
#define MPI_DOUBLE_PRECISION	(&smpi_type_f_double_precision)
#define MPI_COMPLEX		(&smpi_type_f_complex)
#define MPI_DOUBLE_COMPLEX	(&smpi_type_f_double_complex)
#define MPI_LOGICAL		(&smpi_type_f_logical)
#define MPI_CHARACTER		(&smpi_type_f_character)
#define MPI_INTEGER1		(&smpi_type_f_integer1)
#define MPI_INTEGER2		(&smpi_type_f_integer2)
#define MPI_INTEGER4		(&smpi_type_f_integer4)
#define MPI_INTEGER8		(&smpi_type_f_integer8)
#define MPI_REAL4		(&smpi_type_f_real4)
#define MPI_REAL8		(&smpi_type_f_real8)
#define MPI_COMPLEX8		(&smpi_type_f_complex8)
#define MPI_COMPLEX16		(&smpi_type_f_complex16)
#define MPI_2INTEGER		(&smpi_type_f_2integer)
#define MPI_2REAL		(&smpi_type_f_2real)
#define MPI_2DOUBLE_PRECISION	(&smpi_type_f_2double_precision)
/* gfortran's INTEGER(16), REAL(16) (IEEE quad) and COMPLEX(16); there is no
 * 2-byte REAL on x86-64, so MPI_REAL2 and MPI_COMPLEX4 are
 * MPI_DATATYPE_NULL, as MPICH has its optional types it cannot offer. */
#define MPI_INTEGER16		(&smpi_type_f_integer16)
#define MPI_REAL16		(&smpi_type_f_real16)
#define MPI_COMPLEX32		(&smpi_type_f_complex32)
#define MPI_REAL2		MPI_DATATYPE_NULL
#define MPI_COMPLEX4		MPI_DATATYPE_NULL
/* MPI-1's bound markers for MPI_Type_struct (removed in MPI 3.0; MPICH
 * still has them): zero bytes, a sticky lower or upper bound. */
#define MPI_LB			(&smpi_type_lb)
#define MPI_UB			(&smpi_type_ub)
/* C++'s bool and complex types: the layout of C's _Bool and _Complex. */
#define MPI_CXX_BOOL		(&smpi_type_cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX	(&smpi_type_cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX	(&smpi_type_cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX	(&smpi_type_cxx_long_double_complex)

/* Predefined reduction operations (libsmap/mpi/op.c). */
#define MPI_MAX			(&smpi_op_max)
#define MPI_MIN			(&smpi_op_min)
#define MPI_SUM			(&smpi_op_sum)
#define MPI_PROD		(&smpi_op_prod)
#define MPI_LAND		(&smpi_op_land)
#define MPI_BAND		(&smpi_op_band)
#define MPI_LOR			(&smpi_op_lor)
#define MPI_BOR			(&smpi_op_bor)
#define MPI_LXOR		(&smpi_op_lxor)
#define MPI_BXOR		(&smpi_op_bxor)
#define MPI_MINLOC		(&smpi_op_minloc)
#define MPI_MAXLOC		(&smpi_op_maxloc)
#define MPI_REPLACE		(&smpi_op_replace)
#define MPI_NO_OP		(&smpi_op_no_op)

/* Address 0, as in MPICH and Open MPI: a buffer plus a displacement is an
 * address, so datatypes of absolute addresses (MPI_Get_address) work from
 * MPI_BOTTOM in every call that takes a buffer, with no special case. */
#define MPI_BOTTOM		((void *)0)
#define MPI_IN_PLACE		((void *)smpi_in_place)
#define MPI_STATUS_IGNORE	((MPI_Status *)0)
#define MPI_STATUSES_IGNORE	((MPI_Status *)0)
#define MPI_ERRCODES_IGNORE	((int *)0)
#define MPI_ARGV_NULL		((char **)0)
#define MPI_UNWEIGHTED		((int *)smpi_unweighted)

#define MPI_ANY_SOURCE		(-1)
#define MPI_PROC_NULL		(-2)
#define MPI_ROOT		(-3)
#define MPI_ANY_TAG		(-1)
#define MPI_UNDEFINED		(-32766)
#define MPI_KEYVAL_INVALID	(-1)
#define MPI_BSEND_OVERHEAD	64
#define MPI_MAX_PROCESSOR_NAME	256
#define MPI_MAX_ERROR_STRING	256
#define MPI_MAX_OBJECT_NAME	128
#define MPI_MAX_PSET_NAME_LEN	256
#define MPI_MAX_STRINGTAG_LEN	256
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_INFO_KEY	255
#define MPI_MAX_INFO_VAL	1024

/* Attribute keys on communicators. */
#define MPI_TAG_UB		0x64400001
#define MPI_HOST		0x64400002
#define MPI_IO			0x64400003
#define MPI_WTIME_IS_GLOBAL	0x64400004
#define MPI_UNIVERSE_SIZE	0x64400005
#define MPI_APPNUM		0x64400006
#define MPI_LASTUSEDCODE	0x64400007

#define MPI_NULL_COPY_FN	((MPI_Comm_copy_attr_function *)0)
#define MPI_NULL_DELETE_FN	((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_NULL_COPY_FN	((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN	((MPI_Comm_delete_attr_function *)0)
#define MPI_TYPE_NULL_COPY_FN	((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN	((MPI_Type_delete_attr_function *)0)
int smpi_type_dup_fn(MPI_Datatype, int, void *, void *, void *, int *);
#define MPI_TYPE_DUP_FN		smpi_type_dup_fn
int smpi_comm_dup_fn(MPI_Comm, int, void *, void *, void *, int *);
#define MPI_COMM_DUP_FN		smpi_comm_dup_fn
#define MPI_DUP_FN		smpi_comm_dup_fn

/* One-sided communication (libsmap/mpi/win*.c, docs/rma.md). */
#define MPI_MODE_NOCHECK	1024
#define MPI_MODE_NOSTORE	2048
#define MPI_MODE_NOPUT		4096
#define MPI_MODE_NOPRECEDE	8192
#define MPI_MODE_NOSUCCEED	16384
#define MPI_LOCK_EXCLUSIVE	234
#define MPI_LOCK_SHARED		235
/* Attribute keys on windows. */
#define MPI_WIN_BASE		0x66000001
#define MPI_WIN_SIZE		0x66000002
#define MPI_WIN_DISP_UNIT	0x66000003
#define MPI_WIN_CREATE_FLAVOR	0x66000004
#define MPI_WIN_MODEL		0x66000005
/* Values of MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL. */
#define MPI_WIN_FLAVOR_CREATE	1
#define MPI_WIN_FLAVOR_ALLOCATE	2
#define MPI_WIN_FLAVOR_DYNAMIC	3
#define MPI_WIN_FLAVOR_SHARED	4
#define MPI_WIN_SEPARATE	1
#define MPI_WIN_UNIFIED		2
#define MPI_WIN_NULL_COPY_FN	((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN	((MPI_Win_delete_attr_function *)0)
int smpi_win_dup_fn(MPI_Win, int, void *, void *, void *, int *);
#define MPI_WIN_DUP_FN		smpi_win_dup_fn

/* Results of the compare calls. */
#define MPI_IDENT		0
#define MPI_CONGRUENT		1
#define MPI_SIMILAR		2
#define MPI_UNEQUAL		3

/* Thread levels. */
#define MPI_THREAD_SINGLE	0
#define MPI_THREAD_FUNNELED	1
#define MPI_THREAD_SERIALIZED	2
#define MPI_THREAD_MULTIPLE	3

/* Comm_split_type. */
#define MPI_COMM_TYPE_SHARED	1
/* MPI 4.0: by the hardware resource the info key mpi_hw_resource_type
 * names ("mpi_shared_memory": the node), and the next level down. */
#define MPI_COMM_TYPE_HW_GUIDED		2
#define MPI_COMM_TYPE_HW_UNGUIDED	3

/* Topology kinds (Topo_test). */
#define MPI_GRAPH		1
#define MPI_CART		2
#define MPI_DIST_GRAPH		3

/* Datatype constructors' array orders and distributions. */
#define MPI_ORDER_C		56
#define MPI_ORDER_FORTRAN	57
#define MPI_DISTRIBUTE_BLOCK	121
#define MPI_DISTRIBUTE_CYCLIC	122
#define MPI_DISTRIBUTE_NONE	123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* Combiners (Type_get_envelope). */
#define MPI_COMBINER_NAMED		1
#define MPI_COMBINER_DUP		2
#define MPI_COMBINER_CONTIGUOUS		3
#define MPI_COMBINER_VECTOR		4
#define MPI_COMBINER_HVECTOR		5
#define MPI_COMBINER_INDEXED		6
#define MPI_COMBINER_HINDEXED		7
#define MPI_COMBINER_INDEXED_BLOCK	8
#define MPI_COMBINER_HINDEXED_BLOCK	9
#define MPI_COMBINER_STRUCT		10
#define MPI_COMBINER_SUBARRAY		11
#define MPI_COMBINER_DARRAY		12
#define MPI_COMBINER_RESIZED		13
#define MPI_COMBINER_F90_REAL		14
#define MPI_COMBINER_F90_COMPLEX	15
#define MPI_COMBINER_F90_INTEGER	16
/* MPI-1's Fortran forms (deprecated): never returned here, as in MPICH; a
 * type from Fortran's MPI_TYPE_HVECTOR says MPI_COMBINER_HVECTOR and its
 * contents hold addresses. */
#define MPI_COMBINER_HVECTOR_INTEGER	17
#define MPI_COMBINER_HINDEXED_INTEGER	18
#define MPI_COMBINER_STRUCT_INTEGER	19
/* Type_match_size. */
#define MPI_TYPECLASS_REAL		1
#define MPI_TYPECLASS_INTEGER		2
#define MPI_TYPECLASS_COMPLEX		3

/* Error classes; every code libsmap returns is a class. */
#define MPI_SUCCESS			0
#define MPI_ERR_BUFFER			1
#define MPI_ERR_COUNT			2
#define MPI_ERR_TYPE			3
#define MPI_ERR_TAG			4
#define MPI_ERR_COMM			5
#define MPI_ERR_RANK			6
#define MPI_ERR_REQUEST			7
#define MPI_ERR_ROOT			8
#define MPI_ERR_GROUP			9
#define MPI_ERR_OP			10
#define MPI_ERR_TOPOLOGY		11
#define MPI_ERR_DIMS			12
#define MPI_ERR_ARG			13
#define MPI_ERR_UNKNOWN			14
#define MPI_ERR_TRUNCATE		15
#define MPI_ERR_OTHER			16
#define MPI_ERR_INTERN			17
#define MPI_ERR_IN_STATUS		18
#define MPI_ERR_PENDING			19
#define MPI_ERR_KEYVAL			20
#define MPI_ERR_NO_MEM			21
#define MPI_ERR_BASE			22
#define MPI_ERR_INFO_KEY		23
#define MPI_ERR_INFO_VALUE		24
#define MPI_ERR_INFO_NOKEY		25
#define MPI_ERR_SPAWN			26
#define MPI_ERR_PORT			27
#define MPI_ERR_SERVICE			28
#define MPI_ERR_NAME			29
#define MPI_ERR_WIN			30
#define MPI_ERR_SIZE			31
#define MPI_ERR_DISP			32
#define MPI_ERR_INFO			33
#define MPI_ERR_LOCKTYPE		34
#define MPI_ERR_ASSERT			35
#define MPI_ERR_RMA_CONFLICT		36
#define MPI_ERR_RMA_SYNC		37
#define MPI_ERR_FILE			38
#define MPI_ERR_NOT_SAME		39
#define MPI_ERR_AMODE			40
#define MPI_ERR_UNSUPPORTED_DATAREP	41
#define MPI_ERR_UNSUPPORTED_OPERATION	42
#define MPI_ERR_NO_SUCH_FILE		43
#define MPI_ERR_FILE_EXISTS		44
#define MPI_ERR_BAD_FILE		45
#define MPI_ERR_ACCESS			46
#define MPI_ERR_NO_SPACE		47
#define MPI_ERR_QUOTA			48
#define MPI_ERR_READ_ONLY		49
#define MPI_ERR_FILE_IN_USE		50
#define MPI_ERR_DUP_DATAREP		51
#define MPI_ERR_CONVERSION		52
#define MPI_ERR_IO			53
#define MPI_ERR_RMA_RANGE		54
#define MPI_ERR_RMA_ATTACH		55
#define MPI_ERR_RMA_SHARED		56
#define MPI_ERR_RMA_FLAVOR		57
/* The tools interface's (MPI_T_*) error classes. */
#define MPI_T_ERR_MEMORY		58
#define MPI_T_ERR_NOT_INITIALIZED	59
#define MPI_T_ERR_CANNOT_INIT		60
#define MPI_T_ERR_INVALID_INDEX		61
#define MPI_T_ERR_INVALID_ITEM		62
#define MPI_T_ERR_INVALID_HANDLE	63
#define MPI_T_ERR_OUT_OF_HANDLES	64
#define MPI_T_ERR_OUT_OF_SESSIONS	65
#define MPI_T_ERR_INVALID_SESSION	66
#define MPI_T_ERR_CVAR_SET_NOT_NOW	67
#define MPI_T_ERR_CVAR_SET_NEVER	68
#define MPI_T_ERR_PVAR_NO_STARTSTOP	69
#define MPI_T_ERR_PVAR_NO_WRITE		70
#define MPI_T_ERR_PVAR_NO_ATOMIC	71
#define MPI_T_ERR_INVALID_NAME		72
#define MPI_T_ERR_INVALID		73
/* MPI 4.0's. */
#define MPI_ERR_SESSION			74
#define MPI_ERR_PROC_ABORTED		75
#define MPI_ERR_VALUE_TOO_LARGE		76
#define MPI_T_ERR_NOT_SUPPORTED		77
#define MPI_ERR_LASTCODE		77

/*
 * Every call below is declared as MPI_name and PMPI_name.  SMPI_API keeps
 * the two lists from drifting apart.
 */
#define SMPI_API(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

/* Environment. */
SMPI_API(int, Init, (int *argc, char ***argv))
SMPI_API(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
SMPI_API(int, Initialized, (int *flag))
SMPI_API(int, Finalize, (void))
SMPI_API(int, Finalized, (int *flag))
SMPI_API(int, Abort, (MPI_Comm comm, int errorcode))
SMPI_API(int, Query_thread, (int *provided))
SMPI_API(int, Is_thread_main, (int *flag))
SMPI_API(int, Get_version, (int *version, int *subversion))
SMPI_API(int, Get_library_version, (char *version, int *resultlen))
SMPI_API(int, Get_processor_name, (char *name, int *resultlen))
SMPI_API(double, Wtime, (void))
SMPI_API(double, Wtick, (void))
SMPI_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
SMPI_API(int, Free_mem, (void *base))
SMPI_API(int, Error_string, (int errorcode, char *string, int *resultlen))
SMPI_API(int, Error_class, (int errorcode, int *errorclass))
SMPI_API(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler))
SMPI_API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
SMPI_API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
SMPI_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
SMPI_API(int, Errhandler_free, (MPI_Errhandler *errhandler))

/* Point-to-point. */
SMPI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SMPI_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SMPI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SMPI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SMPI_API(int, Buffer_attach, (void *buffer, int size))
SMPI_API(int, Buffer_detach, (void *buffer_addr, int *size))
SMPI_API(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
SMPI_API(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
			 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
			 MPI_Comm comm, MPI_Status *status))
SMPI_API(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
				 int source, int recvtag, MPI_Comm comm, MPI_Status *status))
SMPI_API(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Start, (MPI_Request *request))
SMPI_API(int, Startall, (int count, MPI_Request array_of_requests[]))
SMPI_API(int, Wait, (MPI_Request *request, MPI_Status *status))
SMPI_API(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]))
SMPI_API(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
SMPI_API(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
			 MPI_Status array_of_statuses[]))
SMPI_API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
SMPI_API(int, Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]))
SMPI_API(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
SMPI_API(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
			 MPI_Status array_of_statuses[]))
SMPI_API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
SMPI_API(int, Request_free, (MPI_Request *request))
SMPI_API(int, Cancel, (MPI_Request *request))
SMPI_API(int, Test_cancelled, (const MPI_Status *status, int *flag))
SMPI_API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
SMPI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
SMPI_API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
SMPI_API(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
SMPI_API(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
SMPI_API(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
SMPI_API(int, Status_set_cancelled, (MPI_Status *status, int flag))

/* Datatypes. */
SMPI_API(int, Type_size, (MPI_Datatype datatype, int *size))
SMPI_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
SMPI_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
SMPI_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
SMPI_API(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
SMPI_API(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
SMPI_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
SMPI_API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
SMPI_API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
SMPI_API(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
SMPI_API(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
				    MPI_Datatype *newtype))
SMPI_API(int, Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[],
			     MPI_Datatype oldtype, MPI_Datatype *newtype))
SMPI_API(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
				     const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
				     MPI_Datatype *newtype))
SMPI_API(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[],
					  MPI_Datatype oldtype, MPI_Datatype *newtype))
SMPI_API(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[],
					   MPI_Datatype oldtype, MPI_Datatype *newtype))
SMPI_API(int, Type_create_struct, (int count, const int array_of_blocklengths[],
				   const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
				   MPI_Datatype *newtype))
SMPI_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
SMPI_API(int, Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[],
				     const int array_of_starts[], int order, MPI_Datatype oldtype,
				     MPI_Datatype *newtype))
SMPI_API(int, Type_commit, (MPI_Datatype *datatype))
SMPI_API(int, Type_free, (MPI_Datatype *datatype))
SMPI_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
SMPI_API(int, Get_address, (const void *location, MPI_Aint *address))
SMPI_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
SMPI_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
SMPI_API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
		     int *position, MPI_Comm comm))
SMPI_API(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount,
		       MPI_Datatype datatype, MPI_Comm comm))
SMPI_API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))

/* Groups and communicators. */
SMPI_API(int, Comm_size, (MPI_Comm comm, int *size))
SMPI_API(int, Comm_rank, (MPI_Comm comm, int *rank))
SMPI_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
SMPI_API(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
SMPI_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
SMPI_API(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
SMPI_API(int, Comm_free, (MPI_Comm *comm))
SMPI_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
SMPI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
SMPI_API(int, Comm_test_inter, (MPI_Comm comm, int *flag))
SMPI_API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
SMPI_API(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
SMPI_API(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *copy_fn, MPI_Comm_delete_attr_function *delete_fn,
				   int *keyval, void *extra_state))
SMPI_API(int, Comm_free_keyval, (int *keyval))
SMPI_API(int, Comm_set_attr, (MPI_Comm comm, int keyval, void *attribute_val))
SMPI_API(int, Comm_get_attr, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
SMPI_API(int, Comm_delete_attr, (MPI_Comm comm, int keyval))
SMPI_API(int, Topo_test, (MPI_Comm comm, int *status))
SMPI_API(int, Group_size, (MPI_Group group, int *size))
SMPI_API(int, Group_rank, (MPI_Group group, int *rank))
SMPI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
SMPI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
SMPI_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
SMPI_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
SMPI_API(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
SMPI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
SMPI_API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SMPI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SMPI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SMPI_API(int, Group_free, (MPI_Group *group))

/* Collectives and reduction operations. */
SMPI_API(int, Barrier, (MPI_Comm comm))
SMPI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
SMPI_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
		       MPI_Comm comm))
SMPI_API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			  MPI_Comm comm))
SMPI_API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))
SMPI_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
			       MPI_Op op, MPI_Comm comm))
SMPI_API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
				     MPI_Op op, MPI_Comm comm))
SMPI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SMPI_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
		       MPI_Comm comm))
SMPI_API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, int root, MPI_Comm comm))
SMPI_API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
SMPI_API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			MPI_Datatype recvtype, int root, MPI_Comm comm))
SMPI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
			 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SMPI_API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm))
SMPI_API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
SMPI_API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			 MPI_Datatype recvtype, MPI_Comm comm))
SMPI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
			  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			  MPI_Comm comm))
SMPI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
			  const MPI_Datatype recvtypes[], MPI_Comm comm))
SMPI_API(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
SMPI_API(int, Op_free, (MPI_Op *op))
SMPI_API(int, Op_commutative, (MPI_Op op, int *commute))

/* Nonblocking collectives (libsmap/mpi/nbc*.c): schedules that progress
 * whenever the rank is inside MPI (docs/mpi.md). */
SMPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
		       MPI_Request *request))
SMPI_API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
			 MPI_Request *request))
SMPI_API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			  MPI_Request *request))
SMPI_API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
			    MPI_Request *request))
SMPI_API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
			MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			   MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
				MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
				      MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		      MPI_Request *request))
SMPI_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			MPI_Comm comm, MPI_Request *request))

/* MPI 4.0 persistent collectives (MPI_Start, then Wait or Test; freed by
 * MPI_Request_free) and MPI_Isendrecv(_replace) (libsmap/mpi/nbc_coll.c). */
SMPI_API(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
			   MPI_Request *request))
SMPI_API(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			    MPI_Request *request))
SMPI_API(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
			     MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			     MPI_Request *request))
SMPI_API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
			      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			      MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			       MPI_Request *request))
SMPI_API(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
				MPI_Info info, MPI_Request *request))
SMPI_API(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			      MPI_Request *request))
SMPI_API(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
			       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
			       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
			       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
			       MPI_Request *request))
SMPI_API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			    int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			       MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
				    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
				    MPI_Request *request))
SMPI_API(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
					  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
					  MPI_Request *request))
SMPI_API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			  MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
			    MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
			  MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
				  int recvtag, MPI_Comm comm, MPI_Request *request))

/* MPI 4.0 partitioned point-to-point (libsmap/mpi/part.c). */
SMPI_API(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
			   int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
			   int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Pready, (int partition, MPI_Request request))
SMPI_API(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
SMPI_API(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
SMPI_API(int, Parrived, (MPI_Request request, int partition, int *flag))

/* Process topologies and neighborhood collectives (libsmap/mpi/topo.c). */
extern char smpi_weights_empty[];
#define MPI_WEIGHTS_EMPTY	((int *)smpi_weights_empty)
SMPI_API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
			    MPI_Comm *comm_cart))
SMPI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
SMPI_API(int, Cartdim_get, (MPI_Comm comm, int *ndims))
SMPI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
SMPI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
SMPI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
SMPI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
SMPI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
SMPI_API(int, Dims_create, (int nnodes, int ndims, int dims[]))
SMPI_API(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
			     MPI_Comm *comm_graph))
SMPI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
SMPI_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
SMPI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
SMPI_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
SMPI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
SMPI_API(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[],
					   const int sourceweights[], int outdegree, const int destinations[],
					   const int destweights[], MPI_Info info, int reorder,
					   MPI_Comm *comm_dist_graph))
SMPI_API(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[],
				  const int destinations[], const int weights[], MPI_Info info, int reorder,
				  MPI_Comm *comm_dist_graph))
SMPI_API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
SMPI_API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
				     int maxoutdegree, int destinations[], int destweights[]))
SMPI_API(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				   int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SMPI_API(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
				    MPI_Comm comm))
SMPI_API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				  int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SMPI_API(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
				   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
				   MPI_Datatype recvtype, MPI_Comm comm))
SMPI_API(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
				   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
				   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
SMPI_API(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
				     MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
				    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
				    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
				    MPI_Request *request))
SMPI_API(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
				    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
				    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
				    MPI_Request *request))
SMPI_API(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
					void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
					MPI_Info info, MPI_Request *request))
SMPI_API(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
					 void *recvbuf, const int recvcounts[], const int displs[],
					 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
				       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				       MPI_Request *request))
SMPI_API(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
					MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
					const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
					MPI_Request *request))
SMPI_API(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
					const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
					const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
					MPI_Info info, MPI_Request *request))

/* One-sided communication. */
SMPI_API(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
SMPI_API(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
			     MPI_Win *win))
SMPI_API(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
				    MPI_Win *win))
SMPI_API(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr))
SMPI_API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
SMPI_API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
SMPI_API(int, Win_detach, (MPI_Win win, const void *base))
SMPI_API(int, Win_free, (MPI_Win *win))
SMPI_API(int, Win_get_group, (MPI_Win win, MPI_Group *group))
SMPI_API(int, Win_set_info, (MPI_Win win, MPI_Info info))
SMPI_API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))
SMPI_API(int, Win_set_name, (MPI_Win win, const char *win_name))
SMPI_API(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
SMPI_API(int, Win_create_errhandler, (MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler))
SMPI_API(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
SMPI_API(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
SMPI_API(int, Win_call_errhandler, (MPI_Win win, int errorcode))
SMPI_API(int, Win_create_keyval, (MPI_Win_copy_attr_function *copy_fn, MPI_Win_delete_attr_function *delete_fn,
				  int *keyval, void *extra_state))
SMPI_API(int, Win_free_keyval, (int *keyval))
SMPI_API(int, Win_set_attr, (MPI_Win win, int keyval, void *attribute_val))
SMPI_API(int, Win_get_attr, (MPI_Win win, int keyval, void *attribute_val, int *flag))
SMPI_API(int, Win_delete_attr, (MPI_Win win, int keyval))
SMPI_API(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
		    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
SMPI_API(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
		    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
SMPI_API(int, Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
			   int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
			   MPI_Op op, MPI_Win win))
SMPI_API(int, Get_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
			       void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
			       MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
			       MPI_Win win))
SMPI_API(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
			     MPI_Aint target_disp, MPI_Op op, MPI_Win win))
SMPI_API(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr, void *result_addr,
				 MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win))
SMPI_API(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
		     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
		     MPI_Request *request))
SMPI_API(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
		     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
		     MPI_Request *request))
SMPI_API(int, Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
			    int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
			    MPI_Op op, MPI_Win win, MPI_Request *request))
SMPI_API(int, Rget_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
				void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
				MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
				MPI_Win win, MPI_Request *request))
SMPI_API(int, Win_fence, (int assert, MPI_Win win))
SMPI_API(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
SMPI_API(int, Win_complete, (MPI_Win win))
SMPI_API(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
SMPI_API(int, Win_wait, (MPI_Win win))
SMPI_API(int, Win_test, (MPI_Win win, int *flag))
SMPI_API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
SMPI_API(int, Win_unlock, (int rank, MPI_Win win))
SMPI_API(int, Win_lock_all, (int assert, MPI_Win win))
SMPI_API(int, Win_unlock_all, (MPI_Win win))
SMPI_API(int, Win_flush, (int rank, MPI_Win win))
SMPI_API(int, Win_flush_all, (MPI_Win win))
SMPI_API(int, Win_flush_local, (int rank, MPI_Win win))
SMPI_API(int, Win_flush_local_all, (MPI_Win win))
SMPI_API(int, Win_sync, (MPI_Win win))

/* MPI-IO (libsmap/mpi/file.c, docs/mpi.md): files through the kernel's
 * I/O server, or Linux in host mode. */
#define MPI_FILE_NULL			((MPI_File)0)
#define MPI_MODE_CREATE			1
#define MPI_MODE_RDONLY			2
#define MPI_MODE_WRONLY			4
#define MPI_MODE_RDWR			8
#define MPI_MODE_DELETE_ON_CLOSE	16
#define MPI_MODE_UNIQUE_OPEN		32
#define MPI_MODE_EXCL			64
#define MPI_MODE_APPEND			128
#define MPI_MODE_SEQUENTIAL		256
#define MPI_SEEK_SET			600
#define MPI_SEEK_CUR			602
#define MPI_SEEK_END			604
#define MPI_DISPLACEMENT_CURRENT	(-54278278)
#define MPI_MAX_DATAREP_STRING		128
SMPI_API(int, File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh))
SMPI_API(int, File_close, (MPI_File *fh))
SMPI_API(int, File_delete, (const char *filename, MPI_Info info))
SMPI_API(int, File_set_size, (MPI_File fh, MPI_Offset size))
SMPI_API(int, File_preallocate, (MPI_File fh, MPI_Offset size))
SMPI_API(int, File_get_size, (MPI_File fh, MPI_Offset *size))
SMPI_API(int, File_get_group, (MPI_File fh, MPI_Group *group))
SMPI_API(int, File_get_amode, (MPI_File fh, int *amode))
SMPI_API(int, File_set_info, (MPI_File fh, MPI_Info info))
SMPI_API(int, File_get_info, (MPI_File fh, MPI_Info *info_used))
SMPI_API(int, File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
			      const char *datarep, MPI_Info info))
SMPI_API(int, File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
			      char *datarep))
SMPI_API(int, File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
			     MPI_Status *status))
SMPI_API(int, File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				 MPI_Datatype datatype, MPI_Status *status))
SMPI_API(int, File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
			      MPI_Datatype datatype, MPI_Status *status))
SMPI_API(int, File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
				  MPI_Datatype datatype, MPI_Status *status))
SMPI_API(int, File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
			      MPI_Request *request))
SMPI_API(int, File_iwrite_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
			       MPI_Datatype datatype, MPI_Request *request))
SMPI_API(int, File_iread_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				  MPI_Datatype datatype, MPI_Request *request))
SMPI_API(int, File_iwrite_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
				   MPI_Datatype datatype, MPI_Request *request))
SMPI_API(int, File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
SMPI_API(int, File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
SMPI_API(int, File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			   MPI_Status *status))
SMPI_API(int, File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			       MPI_Status *status))
SMPI_API(int, File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
SMPI_API(int, File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			    MPI_Request *request))
SMPI_API(int, File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			       MPI_Request *request))
SMPI_API(int, File_iwrite_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
				MPI_Request *request))
SMPI_API(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence))
SMPI_API(int, File_get_position, (MPI_File fh, MPI_Offset *offset))
SMPI_API(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp))
SMPI_API(int, File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				 MPI_Status *status))
SMPI_API(int, File_write_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
				  MPI_Status *status))
SMPI_API(int, File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				  MPI_Request *request))
SMPI_API(int, File_iwrite_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
				   MPI_Request *request))
SMPI_API(int, File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
				  MPI_Status *status))
SMPI_API(int, File_write_ordered, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
				   MPI_Status *status))
SMPI_API(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence))
SMPI_API(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset))
SMPI_API(int, File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf, int count,
				       MPI_Datatype datatype))
SMPI_API(int, File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status))
SMPI_API(int, File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
					MPI_Datatype datatype))
SMPI_API(int, File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
SMPI_API(int, File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
SMPI_API(int, File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status))
SMPI_API(int, File_write_all_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
SMPI_API(int, File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
SMPI_API(int, File_read_ordered_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
SMPI_API(int, File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status))
SMPI_API(int, File_write_ordered_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
SMPI_API(int, File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status))
SMPI_API(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent))
SMPI_API(int, File_set_atomicity, (MPI_File fh, int flag))
SMPI_API(int, File_get_atomicity, (MPI_File fh, int *flag))
SMPI_API(int, File_sync, (MPI_File fh))
SMPI_API(int, File_create_errhandler, (MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler))
SMPI_API(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler))
SMPI_API(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler))
SMPI_API(int, File_call_errhandler, (MPI_File fh, int errorcode))

/* Info objects (libsmap/mpi/info.c). */
SMPI_API(int, Info_create, (MPI_Info *info))
SMPI_API(int, Info_set, (MPI_Info info, const char *key, const char *value))
SMPI_API(int, Info_delete, (MPI_Info info, const char *key))
SMPI_API(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
SMPI_API(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
/* MPI 4.0's. */
SMPI_API(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value,
				int *flag))
SMPI_API(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
SMPI_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
SMPI_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
SMPI_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
SMPI_API(int, Info_free, (MPI_Info *info))
SMPI_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
SMPI_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
SMPI_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))

/* MPI-1 names, MPI_Pcontrol, error classes a program adds (libsmap/mpi/compat.c). */
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
SMPI_API(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
SMPI_API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
SMPI_API(int, Attr_delete, (MPI_Comm comm, int keyval))
SMPI_API(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
			      int *keyval, void *extra_state))
SMPI_API(int, Keyval_free, (int *keyval))
SMPI_API(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
SMPI_API(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
SMPI_API(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))
SMPI_API(int, Type_struct, (int count, int array_of_blocklengths[],
			    MPI_Aint array_of_displacements[], MPI_Datatype array_of_types[],
			    MPI_Datatype *newtype))
SMPI_API(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
			     MPI_Datatype *newtype))
SMPI_API(int, Type_hindexed, (int count, int array_of_blocklengths[],
			      MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
			      MPI_Datatype *newtype))
SMPI_API(int, Address, (void *location, MPI_Aint *address))
SMPI_API(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
SMPI_API(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
SMPI_API(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
SMPI_API(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
SMPI_API(int, Pcontrol, (const int level, ...))
SMPI_API(int, Add_error_class, (int *errorclass))
SMPI_API(int, Add_error_code, (int errorclass, int *errorcode))
SMPI_API(int, Add_error_string, (int errorcode, const char *string))

/* Dynamic processes, ports, names: they fail, naming themselves
 * (libsmap/mpi/dynproc.c, docs/mpi.md). */
#define MPI_MAX_PORT_NAME	256
#define MPI_ARGVS_NULL		((char ***)0)
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count,
					    void *filebuf, MPI_Offset position, void *extra_state);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *file_extent,
					void *extra_state);
#define MPI_CONVERSION_FN_NULL	((MPI_Datarep_conversion_function *)0)
typedef int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype,
					      MPI_Count count, void *filebuf, MPI_Offset position,
					      void *extra_state);
#define MPI_CONVERSION_FN_NULL_C	((MPI_Datarep_conversion_function_c *)0)
SMPI_API(int, Comm_spawn, (const char *command, char *argv[], int maxprocs, MPI_Info info,
			   int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]))
SMPI_API(int, Comm_spawn_multiple, (int count, char *array_of_commands[],
				    char **array_of_argv[], const int array_of_maxprocs[],
				    const MPI_Info array_of_info[], int root, MPI_Comm comm,
				    MPI_Comm *intercomm, int array_of_errcodes[]))
SMPI_API(int, Comm_get_parent, (MPI_Comm *parent))
SMPI_API(int, Open_port, (MPI_Info info, char *port_name))
SMPI_API(int, Close_port, (const char *port_name))
SMPI_API(int, Comm_accept, (const char *port_name, MPI_Info info, int root, MPI_Comm comm,
			    MPI_Comm *newcomm))
SMPI_API(int, Comm_connect, (const char *port_name, MPI_Info info, int root, MPI_Comm comm,
			     MPI_Comm *newcomm))
SMPI_API(int, Comm_join, (int fd, MPI_Comm *intercomm))
SMPI_API(int, Comm_disconnect, (MPI_Comm *comm))
SMPI_API(int, Publish_name, (const char *service_name, MPI_Info info, const char *port_name))
SMPI_API(int, Unpublish_name, (const char *service_name, MPI_Info info, const char *port_name))
SMPI_API(int, Lookup_name, (const char *service_name, MPI_Info info, char *port_name))
SMPI_API(int, Register_datarep, (const char *datarep,
				 MPI_Datarep_conversion_function *read_conversion_fn,
				 MPI_Datarep_conversion_function *write_conversion_fn,
				 MPI_Datarep_extent_function *dtype_file_extent_fn,
				 void *extra_state))
SMPI_API(int, Register_datarep_c, (const char *datarep,
				   MPI_Datarep_conversion_function_c *read_conversion_fn,
				   MPI_Datarep_conversion_function_c *write_conversion_fn,
				   MPI_Datarep_extent_function *dtype_file_extent_fn,
				   void *extra_state))

/* Generalized requests (libsmap/mpi/grequest.c). */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
SMPI_API(int, Grequest_start, (MPI_Grequest_query_function *query_fn,
			       MPI_Grequest_free_function *free_fn,
			       MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
			       MPI_Request *request))
SMPI_API(int, Grequest_complete, (MPI_Request request))

/* Datatypes: envelopes and contents, attributes, distributed arrays, size
 * and precision matching, external32 (libsmap/mpi/type_ext.c). */
SMPI_API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses,
				  int *num_datatypes, int *combiner))
SMPI_API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses,
				  int max_datatypes, int array_of_integers[],
				  MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
SMPI_API(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
				   MPI_Type_delete_attr_function *type_delete_attr_fn,
				   int *type_keyval, void *extra_state))
SMPI_API(int, Type_free_keyval, (int *type_keyval))
SMPI_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
SMPI_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val,
			      int *flag))
SMPI_API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
SMPI_API(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
				   const int array_of_distribs[], const int array_of_dargs[],
				   const int array_of_psizes[], int order, MPI_Datatype oldtype,
				   MPI_Datatype *newtype))
SMPI_API(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
SMPI_API(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
SMPI_API(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
SMPI_API(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))
SMPI_API(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype,
				   MPI_Aint *size))
SMPI_API(int, Pack_external, (const char datarep[], const void *inbuf, int incount,
			      MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
			      MPI_Aint *position))
SMPI_API(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize,
				MPI_Aint *position, void *outbuf, int outcount,
				MPI_Datatype datatype))

/* The tools interface, MPI_T (libsmap/mpi/tools.c, docs/mpi.md). */
typedef struct smpi_t_enum *MPI_T_enum;
typedef struct smpi_t_cvar_handle *MPI_T_cvar_handle;
typedef struct smpi_t_pvar_handle *MPI_T_pvar_handle;
typedef struct smpi_t_pvar_session *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL			((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL		((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL		((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL		((MPI_T_pvar_session)0)
#define MPI_T_PVAR_ALL_HANDLES		((MPI_T_pvar_handle)-1)
enum {
	MPI_T_VERBOSITY_USER_BASIC = 221, MPI_T_VERBOSITY_USER_DETAIL, MPI_T_VERBOSITY_USER_ALL,
	MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
	MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
	MPI_T_BIND_NO_OBJECT = 9700, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
	MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP, MPI_T_BIND_MPI_OP,
	MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN, MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO,
	MPI_T_BIND_MPI_SESSION	/* MPI 4.0; no variable binds to a session */
};
enum {
	MPI_T_SCOPE_CONSTANT = 60438, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL, MPI_T_SCOPE_GROUP,
	MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL, MPI_T_SCOPE_ALL_EQ
};
enum {
	MPI_T_PVAR_CLASS_STATE = 240, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE,
	MPI_T_PVAR_CLASS_PERCENTAGE, MPI_T_PVAR_CLASS_HIGHWATERMARK,
	MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_AGGREGATE,
	MPI_T_PVAR_CLASS_TIMER, MPI_T_PVAR_CLASS_GENERIC
};
SMPI_API(int, T_init_thread, (int required, int *provided))
SMPI_API(int, T_finalize, (void))
SMPI_API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
SMPI_API(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value, char *name,
				int *name_len))
SMPI_API(int, T_cvar_get_num, (int *num_cvar))
SMPI_API(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity,
				MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
				int *desc_len, int *bind, int *scope))
SMPI_API(int, T_cvar_get_index, (const char *name, int *cvar_index))
SMPI_API(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
				    int *count))
SMPI_API(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle))
SMPI_API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
SMPI_API(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))
SMPI_API(int, T_pvar_get_num, (int *num_pvar))
SMPI_API(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity,
				int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
				char *desc, int *desc_len, int *bind, int *readonly,
				int *continuous, int *atomic))
SMPI_API(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index))
SMPI_API(int, T_pvar_session_create, (MPI_T_pvar_session *session))
SMPI_API(int, T_pvar_session_free, (MPI_T_pvar_session *session))
SMPI_API(int, T_pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index,
				    void *obj_handle, MPI_T_pvar_handle *handle, int *count))
SMPI_API(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
SMPI_API(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
SMPI_API(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
SMPI_API(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
SMPI_API(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle,
			     const void *buf))
SMPI_API(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
SMPI_API(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle,
				 void *buf))
SMPI_API(int, T_category_get_num, (int *num_cat))
SMPI_API(int, T_category_get_info, (int cat_index, char *name, int *name_len, char *desc,
				    int *desc_len, int *num_cvars, int *num_pvars,
				    int *num_categories))
SMPI_API(int, T_category_get_index, (const char *name, int *cat_index))
SMPI_API(int, T_category_get_cvars, (int cat_index, int len, int indices[]))
SMPI_API(int, T_category_get_pvars, (int cat_index, int len, int indices[]))
SMPI_API(int, T_category_get_categories, (int cat_index, int len, int indices[]))
SMPI_API(int, T_category_changed, (int *stamp))
/* MPI 4.0's events: libsmap raises none, so no event type exists and no
 * registration can be made; one timestamp source, the job's clock in
 * nanoseconds (libsmap/mpi/tools.c). */
typedef struct smpi_t_event_registration *MPI_T_event_registration;
typedef struct smpi_t_event_instance *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
	MPI_T_CB_REQUIRE_NONE = 0, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_T_CB_REQUIRE_THREAD_SAFE,
	MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
	MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
				     MPI_T_event_registration event_registration,
				     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
					  MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
					     MPI_T_event_registration event_registration,
					     int source_index, MPI_T_cb_safety cb_safety,
					     void *user_data);
SMPI_API(int, T_event_get_num, (int *num_events))
SMPI_API(int, T_event_get_info, (int event_index, char *name, int *name_len, int *verbosity,
				 MPI_Datatype array_of_datatypes[],
				 MPI_Aint array_of_displacements[], int *num_elements,
				 MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len,
				 int *bind))
SMPI_API(int, T_event_get_index, (const char *name, int *event_index))
SMPI_API(int, T_event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info,
				     MPI_T_event_registration *event_registration))
SMPI_API(int, T_event_handle_set_info, (MPI_T_event_registration event_registration,
					MPI_Info info))
SMPI_API(int, T_event_handle_get_info, (MPI_T_event_registration event_registration,
					MPI_Info *info_used))
SMPI_API(int, T_event_register_callback, (MPI_T_event_registration event_registration,
					  MPI_T_cb_safety cb_safety, MPI_Info info,
					  void *user_data,
					  MPI_T_event_cb_function *event_cb_function))
SMPI_API(int, T_event_callback_set_info, (MPI_T_event_registration event_registration,
					  MPI_T_cb_safety cb_safety, MPI_Info info))
SMPI_API(int, T_event_callback_get_info, (MPI_T_event_registration event_registration,
					  MPI_T_cb_safety cb_safety, MPI_Info *info_used))
SMPI_API(int, T_event_handle_free, (MPI_T_event_registration event_registration,
				    void *user_data,
				    MPI_T_event_free_cb_function *free_cb_function))
SMPI_API(int, T_event_set_dropped_handler, (MPI_T_event_registration event_registration,
					    MPI_T_event_dropped_cb_function *dropped_cb_function))
SMPI_API(int, T_event_read, (MPI_T_event_instance event_instance, int element_index,
			     void *buffer))
SMPI_API(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer))
SMPI_API(int, T_event_get_timestamp, (MPI_T_event_instance event_instance,
				      MPI_Count *event_timestamp))
SMPI_API(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index))
SMPI_API(int, T_source_get_num, (int *num_sources))
SMPI_API(int, T_source_get_info, (int source_index, char *name, int *name_len, char *desc,
				  int *desc_len, MPI_T_source_order *ordering,
				  MPI_Count *ticks_per_second, MPI_Count *max_ticks,
				  MPI_Info *info))
SMPI_API(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
SMPI_API(int, T_category_get_num_events, (int cat_index, int *num_events))
SMPI_API(int, T_category_get_events, (int cat_index, int len, int indices[]))

/* Intercommunicators (libsmap/mpi/comm.c), and MPI_Comm_create_group. */
SMPI_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
SMPI_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
				 int remote_leader, int tag, MPI_Comm *newintercomm))
SMPI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
SMPI_API(int, Comm_remote_size, (MPI_Comm comm, int *size))
SMPI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))

/* Matched probes (libsmap/mpi/mprobe.c). */
SMPI_API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message,
		       MPI_Status *status))
SMPI_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
			MPI_Status *status))
SMPI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
		      MPI_Status *status))
SMPI_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
		       MPI_Request *request))
/* MPI 4.0 sessions (libsmap/mpi/session.c): process sets mpi://WORLD and
 * mpi://SELF, communicators made from their groups. */
SMPI_API(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
SMPI_API(int, Session_finalize, (MPI_Session *session))
SMPI_API(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
SMPI_API(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len,
				     char *pset_name))
SMPI_API(int, Session_get_pset_info, (MPI_Session session, const char *pset_name,
				      MPI_Info *info))
SMPI_API(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
SMPI_API(int, Group_from_session_pset, (MPI_Session session, const char *pset_name,
					MPI_Group *newgroup))
SMPI_API(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info,
				       MPI_Errhandler errhandler, MPI_Comm *newcomm))
SMPI_API(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader,
					     MPI_Group remote_group, int remote_leader,
					     const char *stringtag, MPI_Info info,
					     MPI_Errhandler errhandler, MPI_Comm *newintercomm))
SMPI_API(int, Session_create_errhandler, (MPI_Session_errhandler_function *session_errhandler_fn,
					  MPI_Errhandler *errhandler))
SMPI_API(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
SMPI_API(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
SMPI_API(int, Session_call_errhandler, (MPI_Session session, int errorcode))

/* Nonblocking duplicates (libsmap/mpi/comm.c); the second is MPI 4.0's. */
SMPI_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
SMPI_API(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
				    MPI_Request *request))

/* Handles as Fortran integers (libsmap/lang, docs/languages.md). */
#define SMPI_HANDLE_F(N, T) SMPI_API(MPI_Fint, N##_c2f, (MPI_##T handle)) \
	SMPI_API(MPI_##T, N##_f2c, (MPI_Fint handle))
SMPI_HANDLE_F(Comm, Comm)
SMPI_HANDLE_F(Type, Datatype)
SMPI_HANDLE_F(Group, Group)
SMPI_HANDLE_F(Op, Op)
SMPI_HANDLE_F(Info, Info)
SMPI_HANDLE_F(Request, Request)
SMPI_HANDLE_F(Win, Win)
SMPI_HANDLE_F(Errhandler, Errhandler)
SMPI_HANDLE_F(Message, Message)
SMPI_HANDLE_F(File, File)
SMPI_HANDLE_F(Session, Session)
#undef SMPI_HANDLE_F
SMPI_API(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
SMPI_API(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
/* MPI 4.0: a status as mpi_f08's type(MPI_Status), and where in a
 * Fortran status array (0-based, from C) its public fields are. */
typedef struct MPI_F08_status {
	MPI_Fint MPI_SOURCE;
	MPI_Fint MPI_TAG;
	MPI_Fint MPI_ERROR;
	MPI_Fint smpi_internal[3];
} MPI_F08_status;
#define MPI_F_STATUS_SIZE	6
#define MPI_F_SOURCE		0
#define MPI_F_TAG		1
#define MPI_F_ERROR		2
extern MPI_F08_status *const smpi_f08_status_ignore, *const smpi_f08_statuses_ignore;
#define MPI_F08_STATUS_IGNORE	smpi_f08_status_ignore
#define MPI_F08_STATUSES_IGNORE	smpi_f08_statuses_ignore
SMPI_API(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
SMPI_API(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
SMPI_API(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))
SMPI_API(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))

/*
 * MPI 4.0's large-count bindings (libsmap/mpi/bigcount.c): counts as
 * MPI_Count, displacements as MPI_Aint.  A single count past INT_MAX goes
 * as one element of a datatype made of the elements; arrays of counts past
 * INT_MAX (v and w forms, type constructors) give MPI_ERR_COUNT.
 */
SMPI_API(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm))
SMPI_API(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm))
SMPI_API(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm))
SMPI_API(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm))
SMPI_API(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	int tag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
	MPI_Comm comm, MPI_Status *status))
SMPI_API(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
	MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
	MPI_Status *status))
SMPI_API(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
	MPI_Request *request))
SMPI_API(int, Sendrecv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
	int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
	MPI_Status *status))
SMPI_API(int, Isendrecv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
	int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
	MPI_Request *request))
SMPI_API(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype type, int dest,
	int stag, int source, int rtag, MPI_Comm comm, MPI_Status *status))
SMPI_API(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype type, int dest,
	int stag, int source, int rtag, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Get_count_c, (const MPI_Status *status, MPI_Datatype type, MPI_Count *count))
SMPI_API(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype type, MPI_Count *count))
SMPI_API(int, Status_set_elements_c, (MPI_Status *status, MPI_Datatype type, MPI_Count count))
SMPI_API(int, Buffer_attach_c, (void *buffer, MPI_Count size))
SMPI_API(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
SMPI_API(int, Type_size_c, (MPI_Datatype type, MPI_Count *size))
SMPI_API(int, Type_get_extent_c, (MPI_Datatype type, MPI_Count *lb, MPI_Count *extent))
SMPI_API(int, Type_get_true_extent_c, (MPI_Datatype type, MPI_Count *lb, MPI_Count *extent))
SMPI_API(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
	MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
	MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_indexed_c, (MPI_Count count, const MPI_Count blens[], const MPI_Count displs[],
	MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count blens[],
	const MPI_Count displs[], MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength,
	const MPI_Count displs[], MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
	const MPI_Count displs[], MPI_Datatype old, MPI_Datatype *newtype))
SMPI_API(int, Type_create_struct_c, (MPI_Count count, const MPI_Count blens[],
	const MPI_Count displs[], const MPI_Datatype types[], MPI_Datatype *newtype))
SMPI_API(int, Type_create_subarray_c, (int ndims, const MPI_Count sizes[],
	const MPI_Count subsizes[], const MPI_Count starts[], int order, MPI_Datatype old,
	MPI_Datatype *newtype))
SMPI_API(int, Type_create_darray_c, (int size, int rank, int ndims, const MPI_Count gsizes[],
	const int distribs[], const int dargs[], const int psizes[], int order, MPI_Datatype old,
	MPI_Datatype *newtype))
SMPI_API(int, Type_create_resized_c, (MPI_Datatype old, MPI_Count lb, MPI_Count extent,
	MPI_Datatype *newtype))
SMPI_API(int, Type_get_envelope_c, (MPI_Datatype type, MPI_Count *num_integers,
	MPI_Count *num_addresses, MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner))
SMPI_API(int, Type_get_contents_c, (MPI_Datatype type, MPI_Count max_integers,
	MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[],
	MPI_Aint addresses[], MPI_Count large_counts[], MPI_Datatype datatypes[]))
SMPI_API(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype type, void *outbuf,
	MPI_Count outsize, MPI_Count *position, MPI_Comm comm))
SMPI_API(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
	MPI_Count outcount, MPI_Datatype type, MPI_Comm comm))
SMPI_API(int, Pack_size_c, (MPI_Count incount, MPI_Datatype type, MPI_Comm comm, MPI_Count *size))
SMPI_API(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
	MPI_Datatype type, void *outbuf, MPI_Count outsize, MPI_Count *position))
SMPI_API(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize,
	MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype type))
SMPI_API(int, Pack_external_size_c, (const char datarep[], MPI_Count incount, MPI_Datatype type,
	MPI_Count *size))
SMPI_API(int, Op_create_c, (MPI_User_function_c *fn, int commute, MPI_Op *op))
SMPI_API(int, Bcast_c, (void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm))
SMPI_API(int, Ibcast_c, (void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm,
	MPI_Request *request))
SMPI_API(int, Bcast_init_c, (void *buf, MPI_Count count, MPI_Datatype type, int root,
	MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Gather_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm))
SMPI_API(int, Igather_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Gather_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Scatter_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm))
SMPI_API(int, Iscatter_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Scatter_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Allgather_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Iallgather_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Allgather_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Alltoall_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Ialltoall_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Alltoall_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Neighbor_allgather_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Ineighbor_allgather_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Neighbor_allgather_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Neighbor_alltoall_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Ineighbor_alltoall_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Neighbor_alltoall_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Reduce_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, int root, MPI_Comm comm))
SMPI_API(int, Ireduce_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Reduce_init_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Allreduce_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm))
SMPI_API(int, Iallreduce_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Allreduce_init_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Scan_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm))
SMPI_API(int, Iscan_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Scan_init_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Exscan_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm))
SMPI_API(int, Iexscan_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Exscan_init_c, (const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type,
	MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Reduce_scatter_block_c, (const void *sbuf, void *rbuf, MPI_Count count,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm))
SMPI_API(int, Ireduce_scatter_block_c, (const void *sbuf, void *rbuf, MPI_Count count,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Reduce_scatter_block_init_c, (const void *sbuf, void *rbuf, MPI_Count count,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count,
	MPI_Datatype type, MPI_Op op))
SMPI_API(int, Gatherv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, int root, MPI_Comm comm))
SMPI_API(int, Igatherv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, int root, MPI_Comm comm,
	MPI_Request *request))
SMPI_API(int, Gatherv_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, int root, MPI_Comm comm,
	MPI_Info info, MPI_Request *request))
SMPI_API(int, Scatterv_c, (const void *sbuf, const MPI_Count scounts[], const MPI_Aint displs[],
	MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm))
SMPI_API(int, Iscatterv_c, (const void *sbuf, const MPI_Count scounts[], const MPI_Aint displs[],
	MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
	MPI_Request *request))
SMPI_API(int, Scatterv_init_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint displs[], MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
	int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Allgatherv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Iallgatherv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
	const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm,
	MPI_Request *request))
SMPI_API(int, Allgatherv_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm,
	MPI_Info info, MPI_Request *request))
SMPI_API(int, Neighbor_allgatherv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype,
	MPI_Comm comm))
SMPI_API(int, Ineighbor_allgatherv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm,
	MPI_Request *request))
SMPI_API(int, Neighbor_allgatherv_init_c, (const void *sbuf, MPI_Count scount, MPI_Datatype stype,
	void *rbuf, const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm,
	MPI_Info info, MPI_Request *request))
SMPI_API(int, Alltoallv_c, (const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
	MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[],
	MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Ialltoallv_c, (const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
	MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[],
	MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Alltoallv_init_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Neighbor_alltoallv_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm))
SMPI_API(int, Ineighbor_alltoallv_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Neighbor_alltoallv_init_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Alltoallw_c, (const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
	const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[],
	const MPI_Datatype rtypes[], MPI_Comm comm))
SMPI_API(int, Ialltoallw_c, (const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
	const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[],
	const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Alltoallw_init_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Neighbor_alltoallw_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm))
SMPI_API(int, Ineighbor_alltoallw_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Neighbor_alltoallw_init_c, (const void *sbuf, const MPI_Count scounts[],
	const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[],
	const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Info info,
	MPI_Request *request))
SMPI_API(int, Reduce_scatter_c, (const void *sbuf, void *rbuf, const MPI_Count rcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm))
SMPI_API(int, Ireduce_scatter_c, (const void *sbuf, void *rbuf, const MPI_Count rcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Reduce_scatter_init_c, (const void *sbuf, void *rbuf, const MPI_Count rcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SMPI_API(int, Put_c, (const void * obuf, MPI_Count ocount, MPI_Datatype otype, int target,
	MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win))
SMPI_API(int, Rput_c, (const void * obuf, MPI_Count ocount, MPI_Datatype otype, int target,
	MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *request))
SMPI_API(int, Get_c, (void * obuf, MPI_Count ocount, MPI_Datatype otype, int target, MPI_Aint disp,
	MPI_Count tcount, MPI_Datatype ttype, MPI_Win win))
SMPI_API(int, Rget_c, (void * obuf, MPI_Count ocount, MPI_Datatype otype, int target,
	MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *request))
SMPI_API(int, Accumulate_c, (const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
	MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win))
SMPI_API(int, Raccumulate_c, (const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
	MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win,
	MPI_Request *request))
SMPI_API(int, Get_accumulate_c, (const void *obuf, MPI_Count ocount, MPI_Datatype otype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp, MPI_Count tcount,
	MPI_Datatype ttype, MPI_Op op, MPI_Win win))
SMPI_API(int, Rget_accumulate_c, (const void *obuf, MPI_Count ocount, MPI_Datatype otype,
	void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp, MPI_Count tcount,
	MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *request))
SMPI_API(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
	MPI_Comm comm, MPI_Win *win))
SMPI_API(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
	void *baseptr, MPI_Win *win))
SMPI_API(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
	MPI_Comm comm, void *baseptr, MPI_Win *win))
SMPI_API(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
	void *baseptr))
SMPI_API(int, File_read_at_c, (MPI_File fh, MPI_Offset offset, void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Status * st))
SMPI_API(int, File_read_at_all_c, (MPI_File fh, MPI_Offset offset, void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Status * st))
SMPI_API(int, File_write_at_c, (MPI_File fh, MPI_Offset offset, const void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Status * st))
SMPI_API(int, File_write_at_all_c, (MPI_File fh, MPI_Offset offset, const void * buf,
	MPI_Count count, MPI_Datatype type, MPI_Status * st))
SMPI_API(int, File_iread_at_c, (MPI_File fh, MPI_Offset offset, void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Request * st))
SMPI_API(int, File_iwrite_at_c, (MPI_File fh, MPI_Offset offset, const void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Request * st))
SMPI_API(int, File_iread_at_all_c, (MPI_File fh, MPI_Offset offset, void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Request * st))
SMPI_API(int, File_iwrite_at_all_c, (MPI_File fh, MPI_Offset offset, const void * buf,
	MPI_Count count, MPI_Datatype type, MPI_Request * st))
SMPI_API(int, File_read_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Status * st))
SMPI_API(int, File_read_all_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Status * st))
SMPI_API(int, File_write_c, (MPI_File fh, const void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Status * st))
SMPI_API(int, File_write_all_c, (MPI_File fh, const void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Status * st))
SMPI_API(int, File_iread_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Request * st))
SMPI_API(int, File_iwrite_c, (MPI_File fh, const void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Request * st))
SMPI_API(int, File_iread_all_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Request * st))
SMPI_API(int, File_iwrite_all_c, (MPI_File fh, const void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Request * st))
SMPI_API(int, File_read_shared_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Status * st))
SMPI_API(int, File_write_shared_c, (MPI_File fh, const void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Status * st))
SMPI_API(int, File_iread_shared_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Request * st))
SMPI_API(int, File_iwrite_shared_c, (MPI_File fh, const void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Request * st))
SMPI_API(int, File_read_ordered_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type,
	MPI_Status * st))
SMPI_API(int, File_write_ordered_c, (MPI_File fh, const void * buf, MPI_Count count,
	MPI_Datatype type, MPI_Status * st))
SMPI_API(int, File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void * buf,
	MPI_Count count, MPI_Datatype type))
SMPI_API(int, File_write_at_all_begin_c, (MPI_File fh, MPI_Offset offset, const void * buf,
	MPI_Count count, MPI_Datatype type))
SMPI_API(int, File_read_all_begin_c, (MPI_File fh, void * buf, MPI_Count count, MPI_Datatype type))
SMPI_API(int, File_write_all_begin_c, (MPI_File fh, const void * buf, MPI_Count count,
	MPI_Datatype type))
SMPI_API(int, File_read_ordered_begin_c, (MPI_File fh, void * buf, MPI_Count count,
	MPI_Datatype type))
SMPI_API(int, File_write_ordered_begin_c, (MPI_File fh, const void * buf, MPI_Count count,
	MPI_Datatype type))
SMPI_API(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype type, MPI_Count *extent))

/*
 * MPI 4.1's functions (MPI_VERSION stays 3.1, docs/mpi.md).  Buffered
 * sends go through the communicator's buffer, else its session's, else
 * the process's (libsmap/mpi/bsend.c); MPI_BUFFER_AUTOMATIC as the buffer
 * lets the library allocate each message's room.
 */
extern char smpi_buffer_automatic[];
#define MPI_BUFFER_AUTOMATIC	((void *)smpi_buffer_automatic)
SMPI_API(int, Buffer_flush, (void))
SMPI_API(int, Buffer_iflush, (MPI_Request *request))
SMPI_API(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
SMPI_API(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
SMPI_API(int, Comm_flush_buffer, (MPI_Comm comm))
SMPI_API(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
SMPI_API(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size))
SMPI_API(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
SMPI_API(int, Session_flush_buffer, (MPI_Session session))
SMPI_API(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request))
SMPI_API(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size))
SMPI_API(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size))
SMPI_API(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size))
SMPI_API(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr,
					 MPI_Count *size))
SMPI_API(int, Status_get_source, (MPI_Status *status, int *source))
SMPI_API(int, Status_get_tag, (MPI_Status *status, int *tag))
SMPI_API(int, Status_get_error, (MPI_Status *status, int *error))
SMPI_API(int, Status_set_source, (MPI_Status *status, int source))
SMPI_API(int, Status_set_tag, (MPI_Status *status, int tag))
SMPI_API(int, Status_set_error, (MPI_Status *status, int error))
SMPI_API(int, Request_get_status_all, (int count, MPI_Request array_of_requests[], int *flag,
				       MPI_Status array_of_statuses[]))
SMPI_API(int, Request_get_status_any, (int count, MPI_Request array_of_requests[], int *index,
				       int *flag, MPI_Status *status))
SMPI_API(int, Request_get_status_some, (int incount, MPI_Request array_of_requests[],
					int *outcount, int array_of_indices[],
					MPI_Status array_of_statuses[]))
SMPI_API(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type,
				     MPI_Datatype *pair_type))
SMPI_API(int, Remove_error_class, (int errorclass))
SMPI_API(int, Remove_error_code, (int errorcode))
SMPI_API(int, Remove_error_string, (int errorcode))
SMPI_API(int, Get_hw_resource_info, (MPI_Info *hw_info))

#undef SMPI_API

#ifdef __cplusplus
}
#endif

#endif
