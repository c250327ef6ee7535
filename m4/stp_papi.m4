# STP_CHECK_PAPI: optional PAPI for hardware counters in the bench.
# --with-papi[=DIR]; default: use it if it is found.
AC_DEFUN([STP_CHECK_PAPI], [
  AC_ARG_WITH([papi],
    [AS_HELP_STRING([--with-papi@<:@=DIR@:>@], [PAPI hardware counters in the bench (default: if found)])],
    [], [with_papi=check])
  stp_have_papi=no
  PAPI_CFLAGS=""; PAPI_LIBS=""
  AS_CASE(["$with_papi"],
    [no], [],
    [yes|check], [PAPI_LIBS="-lpapi"],
    [PAPI_CFLAGS="-I$with_papi/include"; PAPI_LIBS="-L$with_papi/lib -Wl,-rpath,$with_papi/lib -lpapi"])
  AS_IF([test "x$with_papi" != xno], [
    stp_save_CFLAGS="$CFLAGS"; stp_save_LIBS="$LIBS"
    CFLAGS="$CFLAGS $PAPI_CFLAGS"; LIBS="$LIBS $PAPI_LIBS"
    AC_MSG_CHECKING([for PAPI])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <papi.h>]], [[return PAPI_library_init(PAPI_VER_CURRENT) < 0;]])],
      [AC_MSG_RESULT([yes]); stp_have_papi=yes], [AC_MSG_RESULT([no])])
    CFLAGS="$stp_save_CFLAGS"; LIBS="$stp_save_LIBS"])
  AS_IF([test "x$stp_have_papi" = xyes],
    [AC_DEFINE([HAVE_PAPI], [1], [PAPI available])
     stp_papi_summary="yes"],
    [AS_IF([test "x$with_papi" != xno && test "x$with_papi" != xcheck],
       [AC_MSG_ERROR([--with-papi=$with_papi given but PAPI does not build and link])])
     PAPI_CFLAGS=""; PAPI_LIBS=""; stp_papi_summary="no"])
  AM_CONDITIONAL([HAVE_PAPI], [test "x$stp_have_papi" = xyes])
  AC_SUBST([PAPI_CFLAGS])
  AC_SUBST([PAPI_LIBS])
])
