# STP_CHECK_MPI_CC: pick the MPI compiler wrapper as CC (before AC_PROG_CC).
# --with-mpi=DIR uses DIR/bin/mpicc; otherwise mpicc from PATH.
AC_DEFUN([STP_CHECK_MPI_CC], [
  AC_ARG_WITH([mpi],
    [AS_HELP_STRING([--with-mpi=DIR], [MPI installation prefix (default: mpicc from PATH)])],
    [], [with_mpi=yes])
  AS_IF([test "x$with_mpi" = xno], [AC_MSG_ERROR([MPI is required: it launches every stage])])
  AS_IF([test "x$with_mpi" != xyes],
    [stp_mpi_path="$with_mpi/bin"],
    [stp_mpi_path="$PATH"])
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper])
  AS_IF([test -z "$MPICC"], [AC_PATH_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich], [], [$stp_mpi_path])])
  AS_IF([test -z "$MPICC"],
    [AC_MSG_ERROR([no MPI compiler wrapper (mpicc) found; on Debian: apt-get install libopenmpi-dev openmpi-bin, or pass --with-mpi=DIR])])
  AS_IF([test -z "$CC"], [CC="$MPICC"])
  AC_ARG_VAR([MPIRUN], [MPI launcher used by make check and the bench])
  AS_IF([test -z "$MPIRUN"], [AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [], [$stp_mpi_path])])
])

# STP_CHECK_MPI: verify that CC compiles and links MPI programs.
AC_DEFUN([STP_CHECK_MPI], [
  AC_MSG_CHECKING([whether $CC compiles and links MPI programs])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
      [[int f; MPI_Initialized(&f); return MPI_VERSION < 3;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([$CC cannot build MPI-3 programs; use the MPI wrapper (CC=mpicc) or --with-mpi=DIR])])
  AS_IF([test -z "$MPIRUN"], [AC_MSG_WARN([no mpirun found: make check and the bench will not run])])
  stp_mpi_summary=`$MPICC --showme:version 2>/dev/null | head -n 1`
  AS_IF([test -z "$stp_mpi_summary"], [stp_mpi_summary="MPI-3 via $MPICC"])
  dnl For clients: the C++ wrapper (GASNET_CXX of the conduit fragments) and
  dnl the MPI libraries a static link of libstageport.a needs (stageport.pc's
  dnl Libs.private; Open MPI's wrapper says, others leave it to the wrapper).
  AC_ARG_VAR([MPICXX], [MPI C++ compiler wrapper (GASNET_CXX in the installed conduit fragments)])
  AS_IF([test -z "$MPICXX"], [AC_PATH_PROGS([MPICXX], [mpicxx mpic++ mpiCC], [], [$stp_mpi_path])])
  STP_CLIENT_CXX=${MPICXX:-c++}
  AC_SUBST([STP_CLIENT_CXX])
  STP_MPI_LIBS=`$MPICC --showme:link 2>/dev/null`
  AC_SUBST([STP_MPI_LIBS])
])
