# How a site builds GASNet-EX's own test programs against a GASNet
# installation: everything it knows of the library comes from the conduit's
# makefile fragment, and each program is compiled the way GASNet's own
# tests/Makefile compiles it ("a model for how GASNet clients should be
# built").  The programs are read where they are (GEX_TESTS_DIR), never
# copied.
#
#   make -f tests/gex/gex-tests.mk GASNET_PREFIX=/prefix CONDUIT=ucx THREADS=par \
#        GEX_TESTS_DIR=../shared/peers/gasnet-ex-tests testam
#
# (tests/run-gex-tests.sh, run by `make check-gex`, builds with it out of
# tree, one program per make; it is a site's plain Makefile, named .mk
# because the tree's .gitignore ignores every file named Makefile.)  GASNET_PREFIX is given on make's command
# line: a stageport fragment follows it (a DESTDIR-staged installation), a
# real GASNet's names the same prefix.
CONDUIT = mpi
THREADS = seq
GEX_TESTS_DIR = ../shared/peers/gasnet-ex-tests
include $(GASNET_PREFIX)/include/$(CONDUIT)-conduit/$(CONDUIT)-$(THREADS).mak

# the MPI compiler, for testmpi (an MPI program with GASNet support)
GASNET_MPI_CC = mpicc

# as GASNet's tests/Makefile: delay.o (compiled without optimisation, so the
# delay loop stays) for the programs that need it
testlogGP_extraobjs = delay.o
testbarrierlate_extraobjs = delay.o
testlogGP: delay.o
testbarrierlate: delay.o

delay.o: $(GEX_TESTS_DIR)/delay.c
	$(GASNET_CC) $(GASNET_CPPFLAGS) $(GASNET_MISC_CFLAGS) -O0 $(MANUAL_CFLAGS) -c -o $@ $(GEX_TESTS_DIR)/delay.c

testmpi: force
	$(GASNET_MPI_CC) -I$(GEX_TESTS_DIR) $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) -c -o $@.o $(GEX_TESTS_DIR)/$@.c
	$(GASNET_MPI_CC) $(GASNET_LDFLAGS) -o $@ $@.o $(GASNET_LIBS)

test%: force
	$(GASNET_CC) -I$(GEX_TESTS_DIR) $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) -c -o $@.o $(GEX_TESTS_DIR)/$@.c
	$(GASNET_LD) $(GASNET_LDFLAGS) -o $@ $@.o $($@_extraobjs) $(GASNET_LIBS)

force:

.PHONY: force
