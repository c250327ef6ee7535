# STP_CHECK_UCX: UCX (ucp) for the native stages.  --with-ucx=DIR or pkg-config ucx.
# Defines HAVE_UCX, AM_CONDITIONAL HAVE_UCX, UCX_CFLAGS, UCX_LIBS, stp_ucx_summary.
AC_DEFUN([STP_CHECK_UCX], [
  AC_ARG_WITH([ucx],
    [AS_HELP_STRING([--with-ucx@<:@=DIR@:>@], [UCX for the native stages (default: check pkg-config ucx)])],
    [], [with_ucx=check])
  stp_have_ucx=no
  stp_ucx_summary="not used"
  AS_CASE(["$with_ucx"],
    [no], [],
    [yes|check], [
      PKG_CHECK_MODULES([UCX], [ucx >= 1.10], [stp_have_ucx=yes], [stp_have_ucx=no])],
    [
      UCX_CFLAGS="-I$with_ucx/include"
      UCX_LIBS="-L$with_ucx/lib -Wl,-rpath,$with_ucx/lib -lucp -luct -lucs -lucm"
      stp_have_ucx=yes])
  AS_IF([test "x$stp_have_ucx" = xyes], [
    stp_save_CFLAGS="$CFLAGS"; stp_save_LIBS="$LIBS"
    CFLAGS="$CFLAGS $UCX_CFLAGS"; LIBS="$LIBS $UCX_LIBS"
    AC_MSG_CHECKING([whether UCX (ucp) links])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <ucp/api/ucp.h>]],
        [[unsigned a, b, c; ucp_get_version(&a, &b, &c); return 0;]])],
      [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no]); stp_have_ucx=no])
    CFLAGS="$stp_save_CFLAGS"; LIBS="$stp_save_LIBS"])
  AS_IF([test "x$stp_have_ucx" = xyes], [
      stp_ucx_version="`$PKG_CONFIG --modversion ucx 2>/dev/null`"
      stp_ucx_summary="yes ${stp_ucx_version:-$with_ucx}"
      AC_DEFINE([HAVE_UCX], [1], [UCX available])
      ],
    [AS_IF([test "x$with_ucx" != xno && test "x$with_ucx" != xcheck],
       [AC_MSG_ERROR([--with-ucx=$with_ucx given but UCX (ucp) does not build and link])])
     AS_IF([test "x$with_ucx" = xcheck], [stp_ucx_summary="not found (native stages not built)"])
     UCX_CFLAGS=""; UCX_LIBS=""])
  AM_CONDITIONAL([HAVE_UCX], [test "x$stp_have_ucx" = xyes])
  AC_SUBST([UCX_CFLAGS])
  AC_SUBST([UCX_LIBS])
])
