/*
 * ptl.h -- ptl: a Portals 3.3 emulation over UCX.
 *
 * ptl is the network interface the GASNet team ported GASNet to on the Cray
 * XT (Portals 3.3 on the SeaStar), rebuilt in software on UCX so that port
 * can be replayed on an ordinary cluster.  It stands on its own: this header,
 * libptl, its own tests and benchmarks.  It knows nothing of GASNet.
 *
 * Names, types, constants and event rules are Portals 3.3's (the Sandia
 * reference headers were the factual reference); everything that is not in
 * Portals 3.3 is an extension named PtlX... / PTLX_... below.
 *
 * ------------------------------------------------------------------------
 * 1. The model in one page
 * ------------------------------------------------------------------------
 * A process opens one network interface (NI).  Its portal table has
 * PTLX_PT_INDEX_MAX + 1 entries; each entry holds an ordered match list of
 * match entries (ME).  An ME carries 64 match bits, 64 ignore bits, a source
 * filter (match_id: nid and/or pid, or PTL_NID_ANY / PTL_PID_ANY) and an
 * unlink policy, and has at most one memory descriptor (MD) attached.
 *
 * An incoming Put or Get names (target, pt_index, match_bits, offset).  The
 * target walks the list in order and takes the FIRST entry that
 *   - accepts the source (match_id),
 *   - matches: ((match_bits ^ me.match_bits) & ~me.ignore_bits) == 0,
 *   - has an active MD that allows the operation (PTL_MD_OP_PUT / _GET),
 *   - and whose MD can hold it: offset + length <= md.length, or, with
 *     PTL_MD_TRUNCATE, offset <= md.length (mlength is then cut to fit).
 * An entry failing any test is skipped, not fatal: the walk goes on.  A
 * message no entry takes is dropped and counted (PTL_SR_DROP_COUNT).
 *
 * The offset is the initiator's (remote_offset) when the MD has
 * PTL_MD_MANAGE_REMOTE; otherwise the MD is locally managed: each message is
 * appended at the MD's own running offset, and, with PTL_MD_MAX_SIZE, the MD
 * becomes inactive as soon as less than max_size bytes remain (GASNet's
 * double-buffered request buffers, seed 000 section 4.2).  Every operation
 * that uses an MD decrements its threshold (unless PTL_MD_THRESH_INF); at
 * zero the MD is inactive.  An inactive MD attached or bound with
 * PTL_UNLINK is unlinked once its operations in progress end, and a
 * PTL_EVENT_UNLINK event follows the event that made it inactive.  When an
 * MD is unlinked, its ME goes too if the ME was attached with PTL_UNLINK.
 *
 * Free-floating MDs (PtlMDBind) are the initiator side: the source of a Put,
 * the destination of a Get's reply, the target of ACK events.
 *
 * ------------------------------------------------------------------------
 * 2. Events (seed 000, Table 2; Portals 3.3)
 * ------------------------------------------------------------------------
 * Events go to the EQ of the MD concerned (none when eq_handle is
 * PTL_EQ_NONE; START or END kinds can be switched off with
 * PTL_MD_EVENT_START_DISABLE / PTL_MD_EVENT_END_DISABLE, the SEND kinds of
 * successful sends with the extension PTLX_MD_EVENT_SEND_DISABLE).
 *
 *   Put, initiator:  SEND_START (on issue), SEND_END (source buffer reusable:
 *                    local completion), ACK (data placed at the target:
 *                    remote completion; only with PTL_ACK_REQ and if the
 *                    target MD lacks PTL_MD_ACK_DISABLE; no ACK for a
 *                    dropped Put).
 *   Put, target:     PUT_START (matched), PUT_END (data in place).
 *   Get, target:     GET_START (matched), GET_END (reply data sent).
 *   Get, initiator:  REPLY_START, REPLY_END (data in place: the Get is done).
 *   Atomic (section 6), initiator: SEND_START, SEND_END, ACK (as a Put);
 *                    fetching: SEND_START, SEND_END (put MD), REPLY_START,
 *                    REPLY_END (get MD: old values in place).
 *   Atomic, target:  ATOMIC_START, ATOMIC_END (done), or for a fetching
 *                    one FETCH_ATOMIC_START, FETCH_ATOMIC_END (reply sent).
 *   Any MD:          UNLINK, after the event of the operation that unlinked it.
 *
 * Event fields (ptl_event_t):
 *   type          the kind above
 *   initiator     Put/Get at the target: the initiator.  SEND_*: this process.
 *                 ACK, REPLY_*: the target that answered.
 *   pt_index, match_bits   those of the Put/Get (all 64 bits, as sent)
 *   rlength       length requested by the initiator
 *   mlength       length actually moved (<= rlength after truncation)
 *   offset        offset into the MD of THIS event: target MD for PUT_* and
 *                 GET_*; the initiator's local offset for SEND_* and REPLY_*
 *                 (PtlPutRegion / PtlGetRegion local_offset: a bounce buffer
 *                 is base + offset, seed 000 section 3.3); for ACK the offset
 *                 at which the data landed in the target MD.
 *   md_handle, md the MD concerned and a snapshot of it (md.user_ptr is the
 *                 client's tag; md.threshold is the remaining threshold)
 *   hdr_data      the Put's or atomic's 64-bit header data (PUT_*, SEND_*,
 *                 ACK, ATOMIC_*, FETCH_ATOMIC_*); 0 else
 *   link          END events: the sequence of the matching START event in
 *                 the same EQ (0 when there was none)
 *   sequence      position of this event in its EQ (0, 1, 2, ...)
 *   ni_fail_type  PTL_NI_OK, PTL_NI_FAIL when the transport failed, or
 *                 PTLX_NI_DROPPED (an extension): the target dropped the
 *                 message -- it matched no entry, or the target had no
 *                 resources for it.  A dropped Put that asked for an ACK
 *                 gets an ACK event of that type (mlength 0), a dropped Get
 *                 REPLY_START/REPLY_END of that type (mlength 0): every
 *                 operation that expects an answer gets one, so an
 *                 initiator never waits for ever on a lost message.
 *   uid, jid      0 (no access control in ptl)
 *
 * Order: an operation's events come in the order above (START before END,
 * SEND_END before ACK even when the ACK overtakes the send's completion,
 * UNLINK last); events of different operations come in the order ptl
 * produced them.
 *
 * EQs have a fixed capacity: PtlEQAlloc's count rounded up to a power of
 * two (at least 2), as in the reference implementation.  (In offload mode
 * the progress thread's events wait in a second ring of that capacity until
 * the client next looks at the EQ, so an EQ may briefly hold up to twice
 * count.)  An EQ never overwrites: an event that finds it full is dropped,
 * counted (PTLX_SR_EQ_DROPPED), and the next successful PtlEQGet/Wait/Poll
 * on that EQ returns PTL_EQ_DROPPED instead of PTL_OK (with a valid event).
 * Never silent.
 *
 * ------------------------------------------------------------------------
 * 3. Processing modes (seed 004): where matching runs
 * ------------------------------------------------------------------------
 * Chosen per NI at PtlNIInit by the interface argument:
 *   PTLX_IFACE_HOST      host mode: incoming messages are matched, placed
 *                        and acknowledged only while this process is inside
 *                        a ptl call (PtlEQGet/Wait/Poll, and the waits
 *                        inside PtlMEUnlink, PtlMDUnlink, PtlNIFini).  The
 *                        host-based, interrupt-era design: an idle waiter
 *                        eventually sleeps until the network wakes it.
 *   PTLX_IFACE_OFFLOAD   offload mode: a progress thread per NI stands in
 *                        for the SeaStar's PowerPC: it matches and places
 *                        incoming messages, sends ACKs and replies and
 *                        posts events whether or not the client polls (a
 *                        client that is waiting in ptl anyway lends a hand
 *                        when the progress thread is not at it).  In
 *                        addition, an ME that is persistent, remotely
 *                        managed and event-free is PUBLISHED to the other
 *                        offload-mode NIs, whose Puts/Gets to it then go
 *                        straight to UCX RMA: no target CPU at all, SEND_END
 *                        at local completion, the ACK from remote
 *                        completion (a flush).  See section 5.
 *   PTL_IFACE_DEFAULT    the mode named by the environment variable
 *                        PTL_MODE=host|offload, else PTLX_IFACE_DEFAULT_MODE
 *                        (offload: the NIC does the Portals work, as on the
 *                        SeaStar; stageport's hybrid stage uses the same
 *                        default).
 * Environment: PTL_PUBLISH=0 turns publishing off (offload mode then
 * matches everything on the progress thread); PTL_VERBOSE=1 prints the mode
 * and transport choices at PtlNIInit, and each process's shortcut,
 * publication and drop counts at PtlNIFini.
 *
 * ------------------------------------------------------------------------
 * 4. Transport, bootstrap, threads, memory
 * ------------------------------------------------------------------------
 * Matched traffic uses UCX active messages: the Put header carries
 * (pt_index, match_bits, offset, hdr_data, ACK address); small payloads come
 * eagerly and are copied into the matched MD, large ones (UCX rendezvous)
 * are received straight into the matched MD's memory (no extra copy).  A
 * Get is a header; the target answers with a reply message carrying the
 * data from its MD.  ACKs and replies name the initiator's MD by handle and
 * are dropped if that handle is stale.
 *
 * Bootstrap: job rank and size, the exchange of UCX addresses and the
 * collectives of PtlNIInit/PtlNIFini come from a stp_boot_t (stp_boot.h).
 * A client with its own launcher gives one to PtlXBootstrap before
 * PtlNIInit; without one, ptl uses stageport's MPI launcher (boot_mpi.h,
 * MPI_COMM_WORLD): PtlInit then calls MPI_Init if the client has not, and
 * PtlFini calls MPI_Finalize if PtlInit did.  PtlNIInit and PtlNIFini are
 * collective over the job (every process calls them; PtlNIFini waits for
 * every process so that nothing is still being written when memory is
 * released).  A process is {nid = job rank, pid = 0}.
 *
 * Threads: calls on one NI must not run concurrently (one client thread at
 * a time, as GASNET_SEQ); each EQ is read by one thread at a time.  ptl's
 * own progress thread (offload mode) is internal.
 *
 * Memory: binding or attaching an MD pins its pages (mlock) and registers
 * them with UCX, and unlinking undoes both, as on a real NIC -- what makes a
 * temporary MD expensive.  If pinning is refused (RLIMIT_MEMLOCK) ptl warns
 * once and registers unpinned.  Memory from PtlXMemAlloc is registered
 * already, and UCX-allocated so that shared-memory transports reach it with
 * plain stores: MDs over it cost nothing to bind (the place for a GASNet
 * segment).  Overlapping MDs over ordinary memory are each pinned and
 * registered; munlock does not nest, so unlinking one unpins pages the
 * other shares (data movement does not depend on the pin).
 *
 * ------------------------------------------------------------------------
 * 5. Offload publishing and first-match
 * ------------------------------------------------------------------------
 * An ME X of an offload NI is published when all hold:
 *   (a) X is eligible: ME PTL_RETAIN; an active MD with PTL_MD_MANAGE_REMOTE,
 *       threshold PTL_MD_THRESH_INF, no EQ (or both START and END events
 *       disabled), without PTL_MD_MAX_SIZE, allowing Put and/or Get;
 *   (b) no EARLIER entry of the same list could ever take a message X could
 *       take: for every ME Y before X (with or without an MD, active or
 *       not), the match sets are disjoint -- their match bits differ in a
 *       bit neither ignores, or their source filters name different
 *       processes.
 * Published entries of a list are therefore pairwise disjoint, and for a
 * message that X matches, X is certainly the entry a full walk would pick
 * IF X's MD accepts it (op allowed, fits or truncates); the initiator checks
 * exactly that against the published description and otherwise sends the
 * message to be matched normally.  The shortcut is taken only when both NIs
 * are in offload mode with publishing on.  A shortcut Put of an aligned 1, 2,
 * 4 or 8 bytes into memory UCX maps here (shared memory) is one store by
 * this CPU, not UCX's put (a memcpy, which may store the word twice: a
 * peer that saw the first store and wrote the word since would lose its
 * write to the second -- boot/stp_copy.h).
 *
 * The list owner re-evaluates (a) and (b) after every change to the list or
 * its MDs.  An entry that stops qualifying -- unlinked, its MD unlinked, or
 * shadowed by an overlapping ME attached/inserted before it -- is revoked
 * SYNCHRONOUSLY: the call making the change (PtlMEAttach, PtlMEInsert,
 * PtlMEUnlink, PtlMDUnlink, PtlPost, ...) returns only after every offload
 * peer's progress thread has acknowledged the revocation.  A peer
 * acknowledges only once its client thread is not inside a shortcut
 * operation and none of its shortcut Puts is still unflushed, so after the
 * acknowledgements no RMA to the old entry is in flight or can start; the
 * new list governs every later message.  (A shortcut Get, and a shortcut
 * Put whose flush ends at once -- shared memory -- are remotely complete
 * when PtlGet/PtlPut return.  Over a network the flush is a round trip: the
 * Put returns locally complete, its SEND_END posted, and its ACK follows
 * when the flush ends (PTLX_SR_LATE_ACK), found by the client thread's next
 * ptl call.  A client that stays out of ptl meanwhile does not hold up a
 * revocation: after 100 us the progress thread takes the client's worker
 * while the client is out of ptl and finishes the flushes itself,
 * PTLX_SR_TX_RESCUE.)  In offload mode UCX's TCP transport does no RMA of
 * its own (UCX_TCP_PUT_ENABLE=n, set by ptl): UCX carries Puts and Gets in
 * active messages to the target's worker.  UCX 1.13's TCP Put crashes the
 * target's worker when several are in flight on one endpoint.
 * Publications and revocations travel on one ordered (sequence-numbered)
 * control stream per pair of processes, so a late publication can never
 * resurrect a revoked entry.  Entries that start to qualify are published
 * asynchronously (until a peer learns of one, it simply matches normally).
 * The owner sends the records of one list change to a peer in one message
 * and does not wait for it; a request buffer's records (its lazy
 * revocation, and the publication of the buffer posted in its place) go at
 * once only to peers that write into the owner's request buffers, and to
 * the others in bunches (PTLX_SR_CTL_LAGGED counts them), a publication
 * revoked before it left being dropped with its revocation -- such a peer
 * that starts writing takes the matched path until it has them.
 * Messages that take different paths (shortcut vs matched) are not ordered
 * with respect to each other.
 *
 * Event entries.  An ME whose MD has an EQ may be published too -- as an
 * EVENT ENTRY -- when (a) holds but for the events, which must be END
 * events only (PTL_MD_EVENT_START_DISABLE), and either the MD is remotely
 * managed as in (a), or it is locally managed with PTL_MD_MAX_SIZE (a
 * request buffer; ME and MD may then be PTL_UNLINK), and (b) holds.  For
 * (b), an earlier entry whose MD is inactive shadows nothing: it can never
 * take a message again.  And request buffers of one match set (the same
 * match bits, ignore bits and source) are ordered rather than shadowed: a
 * request buffer whose earlier overlapping entries are all published
 * request buffers of its match set is published too, naming the nearest
 * of them as the one it follows.  Every publication carries its place in
 * the owner's publication order, and a follower is published after the
 * one it follows, so order and list agree.  The initiator takes a
 * follower only once the one it follows is full -- it has seen that
 * buffer's running offset leave less than max_size, or its lazy
 * revocation has arrived -- and among open entries the first in order, so
 * a message goes where a full walk would put it; meanwhile the follower
 * stands ready, and a full buffer costs the initiator no matched message.
 * A follower whose predecessor changes (an entry inserted between them)
 * is revoked, as shadowing would; one whose predecessor is revoked while
 * still active stays closed at the initiators (matched) until it is
 * itself revoked.  The NIC of seed 000 appends into such a buffer and
 * writes the event itself; ptl emulates that where UCX maps the target's
 * memory into the initiator (shared memory, and memory UCX allocated:
 * PtlXMemAlloc for the MD, ptl's own for the EQ): the initiator's
 * PtlPut/PtlGet copies the data, and writes the PUT_END/GET_END event into
 * the target EQ's ring -- a bounded multi-producer queue that the target's
 * progress thread also posts into, each producer reserving its slot with a
 * compare-and-swap.  A one-sided writer's event is a record of one cache
 * line, stamp included, that leaves out the MD snapshot: the consumer
 * takes it from the MD, whose slot (once the MD is unlinked) is not reused
 * before the consumer is past every such record; the consumer never
 * writes a slot, and says how far it has taken in a word producers read
 * only when the ring may be full.  A locally managed MD keeps its running offset in the
 * EQ's shared memory, where initiators and the progress thread reserve room
 * alike; the operation that leaves less than max_size makes the MD
 * inactive, and the MD is unlinked (UNLINK after the END events of every
 * message that went into it, whichever path it took) once every operation
 * begun on it has ended.  A full buffer's publication is revoked without
 * waiting (nothing can reserve room in it any more); its shared state is
 * reused only once every peer has acknowledged.  The events are the ones
 * matching would post (link 0, the MD as published), an event that finds
 * the EQ full is dropped and counted as for any EQ, and a client blocked in
 * PtlEQWait/Poll is woken by a message from the writer.  Where UCX cannot
 * map the memory (another host, ordinary memory) an event entry is
 * published but never written one-sidedly: everything is matched.
 *
 * Re-armed request buffers (PTLX_MD_REARM, PtlXMERearm: an extension).
 * Such a buffer stays published while full, and re-arming it sends
 * nothing: its owner moves the ME (the matched path's list), takes it the
 * next place in the publication order -- where a relinked buffer's
 * publication would be -- and writes that order into the buffer's shared
 * reservation state, then empties the running offset (the count of
 * operations goes on, so a word read before the re-arming never compares
 * equal again).  An initiator reads a re-armed buffer's order there, after
 * its word: among the buffers of a match set that are open and not full it
 * takes the one first in order, and a reservation fails when the order is
 * no longer the one it chose the buffer at (it chooses again).  A
 * re-armed buffer also names there the entry it follows now, and is passed
 * over (matched) by an initiator that does not know that entry.  A follower
 * opens once the buffer it follows is seen full, or is seen re-armed since
 * its publication.  A re-armed buffer's publication goes to every peer at
 * once (no later round would carry it to a lagging peer).  So a message goes where a full walk of the owner's
 * list would put it, as for relinked buffers.  The operation that ends a
 * full buffer's last operation (the one that sees `done` reach `final`)
 * posts its PTLX_EVENT_DRAINED, one-sidedly or at the target's NIC, so
 * no CPU of the owner takes part until its client takes that event.
 *
 * ------------------------------------------------------------------------
 * 6. Atomic operations (Portals 4 semantics, Portals 3.3 argument style)
 * ------------------------------------------------------------------------
 * PtlAtomic, PtlFetchAtomic and PtlSwap (section "atomics" below) combine
 * [local_offset, +length) of the initiator's MD with the target memory at
 * remote_offset of the entry that matches, element by element: length is
 * a multiple of the datatype's size, at most PTLX_MAX_ATOMIC_SIZE bytes
 * (several elements per call), but for the conditional and masked swaps
 * (PTL_CSWAP*, PTL_MSWAP), which take exactly one element -- as in
 * Portals 4.  For each element t of the target, x of the initiator's data
 * and the operand o (PtlSwap only):
 *   PTL_MIN, PTL_MAX   t = min(t, x) / max(t, x)
 *   PTL_SUM, PTL_PROD  t = t + x / t * x (integers wrap)
 *   PTL_LOR, PTL_LAND, PTL_LXOR   t = (t != 0) op (x != 0), 0 or 1
 *   PTL_BOR, PTL_BAND, PTL_BXOR   t = t | x, t & x, t ^ x
 *   PTL_SWAP           t = x
 *   PTL_CSWAP(_NE, _LE, _LT, _GE, _GT)   t = x if o == t (o != t, o <= t,
 *                      o < t, o >= t, o > t): the operand on the left
 *   PTL_MSWAP          t = (t & ~o) | (x & o)
 * The datatypes are PTL_INT32_T, PTL_UINT32_T, PTL_INT64_T, PTL_UINT64_T,
 * PTL_FLOAT and PTL_DOUBLE (comparisons signed, unsigned or floating as
 * the type says); the logical and bitwise operations and PTL_MSWAP take
 * integer types only.  PtlAtomic and PtlFetchAtomic take the operations
 * up to PTL_BXOR, PtlSwap the swaps; anything else is PTLX_ARG_INVALID.
 * A fetching operation (PtlFetchAtomic, PtlSwap) returns the values the
 * target held before it, in [get_offset, +length) of get_md.
 *
 * Matching is the Put's and Get's (section 1) with the operation's rights:
 * an atomic needs an MD with PTL_MD_OP_PUT; a fetching atomic or a swap
 * needs both PTL_MD_OP_PUT and PTL_MD_OP_GET (Portals 4's rule for its
 * ME options).  Atomics never truncate: an MD that cannot hold the whole
 * [offset, +length) is skipped, with or without PTL_MD_TRUNCATE.  A
 * locally managed MD appends atomics like Puts.  A message nothing
 * takes is dropped: an ACK (if asked) or the REPLY events of type
 * PTLX_NI_DROPPED, as for Put and Get.
 *
 * Events, in the order ptl posts them (section 2's rules apply: START/END
 * switches, links, sequence):
 *   PtlAtomic, initiator:  SEND_START, SEND_END (local completion: the
 *                          data was copied, or sent by the NIC), ACK (if
 *                          PTL_ACK_REQ and the target MD allows ACKs; the
 *                          operation is done at the target).
 *   PtlFetchAtomic / PtlSwap, initiator: SEND_START, SEND_END on put_md,
 *                          then REPLY_START, REPLY_END on get_md (the old
 *                          values are in place: the operation is done).
 *   target:                ATOMIC_START, ATOMIC_END (non-fetching) or
 *                          FETCH_ATOMIC_START, FETCH_ATOMIC_END (fetching,
 *                          END once the reply has been sent).
 * hdr_data is in the target's events, SEND_* and ACK (REPLY_*: 0, as for
 * a Get).  Fields are as for Put and Get: rlength = mlength = length.
 *
 * Atomicity (Portals 4): an atomic operation is atomic with respect to
 * every other ptl atomic operation on the same target memory (every path,
 * every initiator, the target itself included), and NOT with respect to
 * Puts, Gets or the target's own loads and stores.  Operations with
 * several elements are atomic element by element.  Two ways do the work:
 *   - matched (host mode always; offload mode when the shortcut does not
 *     apply): the target's CPU (in host mode inside a ptl call, in offload
 *     mode the progress thread or a waiting client) performs the operation
 *     when it matches the message, with the NI's lock held and every
 *     naturally aligned element updated by an atomic instruction (a
 *     compare-and-swap loop for MIN, MAX, PROD, the logical operations,
 *     the conditional swaps and floats);
 *   - the NIC (offload mode, both NIs publishing, section 5): a
 *     one-element 32- or 64-bit integer PTL_SUM, PTL_BOR, PTL_BAND,
 *     PTL_BXOR (fetching or not), PTL_SWAP or PTL_CSWAP (PtlSwap) to a
 *     published event-free entry that allows it, at a naturally aligned
 *     target address, is one UCX atomic (ucp_atomic_op_nbx) with no ptl
 *     code at the target: a non-fetching one returns locally complete and
 *     is flushed for its ACK exactly as a shortcut Put is (late ACKs, the
 *     rescuer: section 5), a fetching one returns remotely complete.
 *     (A fetching AND, OR or XOR is a fetching add of 0 and then UCX
 *     compare-and-swaps until one succeeds: UCX 1.13's own fetching
 *     AND/OR/XOR over shared memory store t op t instead of t op x.)
 *     Counted in PTLX_SR_ATOMIC_NIC (initiator); atomics performed by a
 *     target's CPU in PTLX_SR_ATOMIC_CPU (target).
 * Both ways are hardware atomic instructions on the target memory, so
 * they can meet on one location: ptl asks UCX for atomics consistent with
 * the CPU's (UCX_ATOMIC_MODE=cpu, set by ptl in offload mode): over shared
 * memory UCX's atomics are the initiator's own atomic instructions on the
 * mapped memory, over TCP they are performed by the target's UCX worker
 * (the progress thread) with atomic instructions.  (A NIC whose atomics
 * are not coherent with the CPU's would not be chosen in this mode.)  A
 * misaligned element is never a UCX atomic: it is updated under the NI's
 * lock only, which every CPU-path atomic holds.
 */
#ifndef PTL_H
#define PTL_H

#include <stdint.h>

#include "stp_boot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- types */
typedef uint64_t ptl_size_t;

/* Handles are opaque 64-bit values carrying a kind, a slot and a generation:
 * a stale or forged handle is detected, never trusted. */
typedef uint64_t ptl_handle_any_t;
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_me_t;
#define PTL_INVALID_HANDLE ((ptl_handle_any_t)UINT64_MAX)
#define PTL_HANDLE_NONE ((ptl_handle_any_t)0x7fffffffffffffffULL)
#define PTL_EQ_NONE ((ptl_handle_eq_t)0xbfffffffffffffffULL)

typedef uint32_t ptl_pt_index_t;
typedef uint32_t ptl_ac_index_t;
#define PTL_PT_INDEX_ANY ((ptl_pt_index_t)0xffffffffu)
typedef uint64_t ptl_match_bits_t;
typedef uint32_t ptl_interface_t;
typedef uint32_t ptl_nid_t;
typedef uint32_t ptl_pid_t;
typedef uint32_t ptl_uid_t;
typedef uint32_t ptl_jid_t;
#define PTL_NID_ANY ((ptl_nid_t)0xffffffffu)
#define PTL_PID_ANY ((ptl_pid_t)0xffffffffu)
#define PTL_UID_ANY ((ptl_uid_t)0xffffffffu)
#define PTL_JID_ANY ((ptl_jid_t)0xffffffffu)

typedef struct {
  ptl_nid_t nid; /* job rank */
  ptl_pid_t pid; /* always 0 */
} ptl_process_id_t;

/* PtlNIInit: limits wanted / granted (ptl grants its fixed limits). */
typedef struct {
  int max_mes;       /* match entries per NI */
  int max_mds;       /* memory descriptors per NI */
  int max_eqs;       /* event queues per NI */
  int max_ac_index;  /* 0: one access-control entry, allowing everything */
  int max_pt_index;  /* highest portal table index (PTLX_PT_INDEX_MAX) */
  int max_md_iovecs; /* pieces an IOVEC MD may have (PTLX_MD_IOVECS_MAX) */
  int max_me_list;   /* entries per match list */
  int max_getput_md; /* 0: PtlGetPut is not provided (Portals 4's atomics are: section 6) */
} ptl_ni_limits_t;

typedef enum { PTL_RETAIN, PTL_UNLINK } ptl_unlink_t;
typedef enum { PTL_INS_BEFORE, PTL_INS_AFTER } ptl_ins_pos_t;
typedef enum { PTL_ACK_REQ, PTL_NO_ACK_REQ } ptl_ack_req_t;

/* A memory descriptor as the client describes it. */
typedef struct {
  void *start;
  ptl_size_t length;
  int threshold;             /* operations allowed before inactive, or PTL_MD_THRESH_INF */
  ptl_size_t max_size;       /* locally managed + PTL_MD_MAX_SIZE: inactive when less remains */
  unsigned int options;      /* PTL_MD_* below, or'ed */
  void *user_ptr;            /* returned in every event of this MD */
  ptl_handle_eq_t eq_handle; /* or PTL_EQ_NONE */
} ptl_md_t;
#define PTL_MD_THRESH_INF (-1)

/* Scatter/gather MDs (Portals 3.3 PTL_MD_IOVEC).  With PTL_MD_IOVEC, an
 * MD's start is an array of `length` pieces and the MD behaves exactly as
 * one contiguous MD whose bytes are the pieces' bytes in array order: its
 * length (for matching, truncation, local offsets, max_size, event
 * offsets) is the sum of iov_len, and one Put or Get gathers from or
 * scatters into as many pieces as its [offset, +length) crosses.  ptl
 * copies the array when the MD is made (the client may reuse it at once;
 * events report start and length as the client gave them).  At most
 * PTLX_MD_IOVECS_MAX pieces (ptl_ni_limits_t.max_md_iovecs); a piece of
 * length 0 is allowed and holds nothing, any other needs a base, and
 * neither a piece nor the total may wrap.  Unlike a contiguous MD, an
 * IOVEC MD is not pinned or registered when made: UCX registers the
 * pieces it moves (a range inside one piece goes to UCX as it is; one
 * that crosses pieces through a bounce buffer, one copy -- or, on the
 * offload shortcut with pieces of 256 bytes or more on average, one UCX
 * RMA per piece).  Not published
 * for the offload shortcut (ptl.h section 5): its entries are matched.
 * An atomic (section 6) into an IOVEC MD must lie within one piece (the
 * elements are updated in place); an entry whose MD it would cross is
 * skipped like one that cannot hold it. */
typedef struct {
  void *iov_base;
  ptl_size_t iov_len;
} ptl_md_iovec_t;
#define PTLX_MD_IOVECS_MAX 65536

#define PTL_MD_OP_PUT 0x0001u
#define PTL_MD_OP_GET 0x0002u
#define PTL_MD_MANAGE_REMOTE 0x0004u /* offset from the initiator */
#define PTL_MD_TRUNCATE 0x0008u      /* accept what fits instead of skipping */
#define PTL_MD_ACK_DISABLE 0x0010u   /* never acknowledge Puts into this MD */
#define PTL_MD_IOVEC 0x0020u         /* start is a ptl_md_iovec_t array, length its count: below */
#define PTL_MD_MAX_SIZE 0x0040u      /* honour max_size (locally managed) */
#define PTL_MD_EVENT_START_DISABLE 0x0080u
#define PTL_MD_EVENT_END_DISABLE 0x0100u
/* Extension (Portals 4 has it): no SEND_START / SEND_END for the sends from
 * this MD that succeed -- for a buffer whose reuse the caller learns of
 * otherwise (a request buffer that takes its reply).  A send that fails
 * still posts its SEND_END with the failure (unless END events are off), so
 * a failure is never silent. */
#define PTLX_MD_EVENT_SEND_DISABLE 0x0200u
/* Extension: a request buffer that is re-armed rather than relinked.  For
 * a locally managed MD with PTL_MD_MAX_SIZE, attached with PTL_RETAIN (the
 * ME may be either).  When it becomes inactive (less than max_size left)
 * and every operation begun on it has ended, its EQ gets PTLX_EVENT_DRAINED
 * (where a PTL_UNLINK MD would get PTL_EVENT_UNLINK) and the MD stays
 * attached, inactive, until PtlXMERearm (below) empties it and moves its ME
 * -- the same entry, so a published one stays published: no revocation
 * and no publication travels (ptl.h section 5). */
#define PTLX_MD_REARM 0x0400u

typedef enum {
  PTL_EVENT_GET_START,
  PTL_EVENT_GET_END,
  PTL_EVENT_PUT_START,
  PTL_EVENT_PUT_END,
  PTL_EVENT_GETPUT_START, /* never generated: no PtlGetPut (the atomics below are Portals 4's way) */
  PTL_EVENT_GETPUT_END,   /* never generated */
  PTL_EVENT_REPLY_START,
  PTL_EVENT_REPLY_END,
  PTL_EVENT_SEND_START,
  PTL_EVENT_SEND_END,
  PTL_EVENT_ACK,
  PTL_EVENT_UNLINK,
  /* atomics (section 6), at the target */
  PTL_EVENT_ATOMIC_START,
  PTL_EVENT_ATOMIC_END,
  PTL_EVENT_FETCH_ATOMIC_START,
  PTL_EVENT_FETCH_ATOMIC_END,
  /* extension: a PTLX_MD_REARM request buffer is full and every operation
   * on it has ended (after all of its END events) */
  PTLX_EVENT_DRAINED
} ptl_event_kind_t;

/* Atomic operations and datatypes (section 6; Portals 4's names). */
typedef enum {
  PTL_MIN,
  PTL_MAX,
  PTL_SUM,
  PTL_PROD,
  PTL_LOR,
  PTL_LAND,
  PTL_BOR,
  PTL_BAND,
  PTL_LXOR,
  PTL_BXOR, /* PtlAtomic, PtlFetchAtomic: up to here */
  PTL_SWAP, /* PtlSwap: from here */
  PTL_CSWAP,
  PTL_CSWAP_NE,
  PTL_CSWAP_LE,
  PTL_CSWAP_LT,
  PTL_CSWAP_GE,
  PTL_CSWAP_GT,
  PTL_MSWAP,
  PTLX_OP_COUNT
} ptl_op_t;
typedef enum {
  PTL_INT32_T,
  PTL_UINT32_T,
  PTL_INT64_T,
  PTL_UINT64_T,
  PTL_FLOAT,
  PTL_DOUBLE,
  PTLX_DATATYPE_COUNT
} ptl_datatype_t;
#define PTLX_MAX_ATOMIC_SIZE 4096u /* bytes per atomic call */

typedef uint32_t ptl_ni_fail_t;
#define PTL_NI_OK 0u
#define PTL_NI_FAIL 1u
#define PTLX_NI_DROPPED 2u /* extension: see ni_fail_type above */
typedef uint32_t ptl_seq_t;
typedef uint64_t ptl_hdr_data_t;

/* One event; fields as described in section 2 above. */
typedef struct {
  ptl_event_kind_t type;
  ptl_process_id_t initiator;
  ptl_uid_t uid;
  ptl_jid_t jid;
  ptl_pt_index_t pt_index;
  ptl_match_bits_t match_bits;
  ptl_size_t rlength;
  ptl_size_t mlength;
  ptl_size_t offset;
  ptl_handle_md_t md_handle;
  ptl_md_t md;
  ptl_hdr_data_t hdr_data;
  ptl_seq_t link;
  ptl_ni_fail_t ni_fail_type;
  ptl_seq_t sequence;
} ptl_event_t;

/* Called by PtlEQGet/Wait/Poll on each event before it is returned. */
typedef void (*ptl_eq_handler_t)(ptl_event_t *event);
#define PTL_EQ_HANDLER_NONE ((ptl_eq_handler_t)0)

typedef uint32_t ptl_time_t; /* milliseconds */
#define PTL_TIME_FOREVER ((ptl_time_t)0xffffffffu)

/* Status registers (PtlNIStatus).  DROP_COUNT is Portals 3.3's; the next
 * five follow the reference implementation; PTLX_ ones are ptl's. */
typedef uint32_t ptl_sr_index_t;
typedef uint64_t ptl_sr_value_t;
#define PTL_SR_DROP_COUNT 0u  /* incoming messages nothing matched */
#define PTL_SR_DROP_LENGTH 1u /* their bytes */
#define PTL_SR_RECV_COUNT 2u  /* messages accepted into MDs here (incl. ACK, reply) */
#define PTL_SR_RECV_LENGTH 3u
#define PTL_SR_SEND_COUNT 4u /* Puts, Gets and Get replies sent */
#define PTL_SR_SEND_LENGTH 5u
#define PTLX_SR_EQ_DROPPED 6u   /* events lost to full EQs */
#define PTLX_SR_ME_TRAVERSED 7u /* MEs examined by matching (incl. the match) */
#define PTLX_SR_SHORTCUT_PUT 8u /* Puts this NI sent by RMA to published MEs */
#define PTLX_SR_SHORTCUT_GET 9u /* Gets likewise */
#define PTLX_SR_PUBLISHED 10u   /* MEs of this NI currently published */
#define PTLX_SR_REVOKED 11u     /* publications of this NI revoked so far */
#define PTLX_SR_MD_REGISTER 12u /* MDs that had to pin + register memory */
#define PTLX_SR_MD_PIN_FAIL 13u /* of those, pinning refused */
#define PTLX_SR_STALE 14u       /* ACKs/replies dropped: their MD was gone */
/* Puts of at most 64 KiB to event entries published but not mapped here
 * (over a network), sent with UCX's eager protocol: no rendezvous round trip */
#define PTLX_SR_EAGER_PUT 15u
/* Publications and revocations of request buffers (locally managed event
 * entries) kept back for peers that do not write into them, sent later in
 * one message or dropped with their revocation (ptl_pub.c, lagging peers) */
#define PTLX_SR_CTL_LAGGED 16u
/* Shortcut Puts that returned locally complete (SEND_END) before their
 * remote completion (a flush in flight, over a network): their ACK came
 * later (ptl.h section 5) */
#define PTLX_SR_LATE_ACK 17u
/* Times the progress thread finished this process's flushes itself while
 * the client thread was away, so that a revocation could be acknowledged */
#define PTLX_SR_TX_RESCUE 18u
/* Atomic operations this NI sent as UCX atomics to published entries (the
 * NIC: no target CPU), and atomics this NI's CPU performed as a target
 * (matched: host mode, or offload when the NIC could not) -- section 6 */
#define PTLX_SR_ATOMIC_NIC 19u
#define PTLX_SR_ATOMIC_CPU 20u
/* Publications of peers this NI could not file as they came (every slot
 * of that peer's table held an entry in use, or one revoked while the
 * client was inside a shortcut operation): kept in order and filed later */
#define PTLX_SR_PUB_UNFILED 21u
#define PTLX_SR_MAX 22u

/* Return codes. */
enum {
  PTL_OK = 0,
  PTL_AC_INDEX_INVALID,
  PTL_EQ_DROPPED, /* success, an event is returned, and events were lost before it */
  PTL_EQ_EMPTY,
  PTL_EQ_INVALID,
  PTL_FAIL,
  PTL_HANDLE_INVALID,
  PTL_IFACE_INVALID,
  PTL_MD_ILLEGAL, /* bad descriptor, or a region outside the MD */
  PTL_MD_INVALID, /* stale/unknown MD handle, or inactive MD */
  PTL_MD_IN_USE,  /* operations still in progress on it */
  PTL_MD_NO_UPDATE,
  PTL_ME_INVALID,
  PTL_ME_IN_USE, /* MD already attached / operations in progress */
  PTL_ME_LIST_TOO_LONG,
  PTL_NI_INVALID,
  PTL_NO_INIT,
  PTL_NO_SPACE,
  PTL_PID_INVALID,
  PTL_PROCESS_INVALID,
  PTL_PT_FULL,
  PTL_PT_INDEX_INVALID,
  PTL_SEGV, /* NULL where a pointer was required */
  PTL_SR_INDEX_INVALID,
  PTL_UNKNOWN_ERROR,
  PTLX_ARG_INVALID, /* extension (Portals 4's PTL_ARG_INVALID): an atomic's op, datatype or length */
  PTL_MAX_ERRNO
};

/* ---------------------------------------------------------------- interfaces */
#define PTL_IFACE_DEFAULT ((ptl_interface_t)0)
#define PTLX_IFACE_HOST ((ptl_interface_t)1)
#define PTLX_IFACE_OFFLOAD ((ptl_interface_t)2)
#define PTLX_IFACE_DEFAULT_MODE PTLX_IFACE_OFFLOAD /* PTL_IFACE_DEFAULT without PTL_MODE */
#define PTLX_PT_INDEX_MAX 63

/* ---------------------------------------------------------------- library */
/* Initialise the library (and MPI, if the client has not).  *max_interfaces
 * = 1.  May be called more than once; PtlFini undoes one call. */
int PtlInit(int *max_interfaces);
void PtlFini(void);

/* ---------------------------------------------------------------- NI */
/* Collective.  interface: PTL_IFACE_DEFAULT or PTLX_IFACE_HOST/_OFFLOAD;
 * pid: PTL_PID_ANY or 0; desired may be NULL; actual receives ptl's limits
 * (may be NULL).  A second call with the same interface returns the same
 * handle (counted: one PtlNIFini each); another interface: PTL_IFACE_INVALID. */
int PtlNIInit(ptl_interface_t iface, ptl_pid_t pid, const ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni_handle);
/* Collective (see section 4): unlinks everything, frees everything. */
int PtlNIFini(ptl_handle_ni_t ni_handle);
int PtlNIStatus(ptl_handle_ni_t ni_handle, ptl_sr_index_t register_index, ptl_sr_value_t *status);
/* The NI any valid handle belongs to. */
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle);
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id);

/* ---------------------------------------------------------------- MEs */
/* New ME at the head (PTL_INS_BEFORE) or tail (PTL_INS_AFTER) of the list. */
int PtlMEAttach(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id,
                ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position,
                ptl_handle_me_t *me_handle);
/* Like PtlMEAttach (at the head) on the first portal index whose list has
 * never held an entry; PTL_PT_FULL if none. */
int PtlMEAttachAny(ptl_handle_ni_t ni_handle, ptl_pt_index_t *pt_index, ptl_process_id_t match_id,
                   ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink,
                   ptl_handle_me_t *me_handle);
/* New ME just before / after `base` in base's list. */
int PtlMEInsert(ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position, ptl_handle_me_t *me_handle);
/* Unlink an ME and the MD attached to it (no UNLINK event).  PTL_ME_IN_USE
 * while operations on that MD are in progress. */
int PtlMEUnlink(ptl_handle_me_t me_handle);

/* ---------------------------------------------------------------- MDs */
/* Attach an MD to an ME that has none (else PTL_ME_IN_USE).  unlink_op:
 * PTL_UNLINK = unlink automatically when it becomes inactive. */
int PtlMDAttach(ptl_handle_me_t me_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle);
/* A free-floating MD (initiator side). */
int PtlMDBind(ptl_handle_ni_t ni_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle);
/* Unlink now (no UNLINK event); its ME goes too if attached with PTL_UNLINK.
 * PTL_MD_IN_USE while operations on it are in progress. */
int PtlMDUnlink(ptl_handle_md_t md_handle);

/* PtlPost (seed 004): an ME and its MD in one call, atomically.  The ME is
 * attached at the head or tail of pt_index's list as PtlMEAttach does. */
int PtlPost(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
            ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position, ptl_md_t md,
            ptl_unlink_t unlink_op, ptl_handle_me_t *me_handle, ptl_handle_md_t *md_handle);
/* The same, with the ME inserted before/after `base` (the Cray XT name,
 * PtlMEInsert + PtlMDAttach in one).  eq_handle is validated and otherwise
 * unused (a fresh ME never needs the PtlMDUpdate step). */
int PtlMEMDPost(ptl_handle_ni_t ni_handle, ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position, ptl_md_t md,
                ptl_unlink_t unlink_op, ptl_handle_me_t *me_handle, ptl_handle_md_t *md_handle,
                ptl_handle_eq_t eq_handle);

/* Extension: re-arm a PTLX_MD_REARM request buffer once its
 * PTLX_EVENT_DRAINED has been posted -- its running offset back to 0, the
 * MD active again, and its ME moved before or after `base` (another ME of
 * the same list), as if relinked there with PtlMEMDPost, but the same ME
 * and MD (handles unchanged).  PTL_ME_INVALID for a bad or unlinked ME or
 * base (or base == the ME), PTL_MD_INVALID for an ME without such an MD,
 * PTL_MD_IN_USE while the buffer is still active or not yet drained. */
int PtlXMERearm(ptl_handle_me_t me_handle, ptl_handle_me_t base, ptl_ins_pos_t position);

/* ---------------------------------------------------------------- EQs */
/* count >= 1 events (rounded up to a power of two, at least 2); count 0
 * gives PTL_EQ_NONE. */
int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_eq_handler_t eq_handler, ptl_handle_eq_t *eq_handle);
/* MDs still naming a freed EQ post nothing (their events are counted as
 * dropped). */
int PtlEQFree(ptl_handle_eq_t eq_handle);
/* Next event: PTL_OK, PTL_EQ_DROPPED (event valid, earlier ones lost),
 * PTL_EQ_EMPTY.  In host mode this is also where matching happens: a call
 * that finds the EQ empty progresses once -- except the one right after a
 * call on this EQ returned an event (it ends a drain, and the caller has
 * an event to handle first); the call after it progresses. */
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event);
/* Block until an event. */
int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event);
/* First event found on any of size EQs (of one NI), waiting up to timeout
 * ms (0: just look; PTL_TIME_FOREVER); *which = its index.  PTL_EQ_EMPTY
 * on timeout. */
int PtlEQPoll(const ptl_handle_eq_t *eq_handles, int size, ptl_time_t timeout, ptl_event_t *event, int *which);

/* ---------------------------------------------------------------- data movement */
/* Put the whole MD (PtlPut) or [local_offset, +length) of it (PtlPutRegion)
 * to target's (pt_index, match_bits) at remote_offset.  ac_index must be 0.
 * Returns when issued (and, on the offload shortcut, remotely complete). */
int PtlPut(ptl_handle_md_t md_handle, ptl_ack_req_t ack_req, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
           ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data);
int PtlPutRegion(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
                 ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
                 ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data);
/* Get into the whole MD / into [local_offset, +length). */
int PtlGet(ptl_handle_md_t md_handle, ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
           ptl_match_bits_t match_bits, ptl_size_t remote_offset);
int PtlGetRegion(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_id_t target_id,
                 ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits,
                 ptl_size_t remote_offset);

/* ---------------------------------------------------------------- atomics (section 6) */
/* [local_offset, +length) of md combined by `op` with the target's
 * memory at remote_offset (op: PTL_MIN ... PTL_BXOR).  Events: SEND_START,
 * SEND_END, and the ACK if asked.  Returns when issued (the data copied). */
int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
              ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
              ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data, ptl_op_t op,
              ptl_datatype_t datatype);
/* The same, the target's old values into [get_offset, +length) of get_md
 * (REPLY_START, REPLY_END there; SEND_START, SEND_END on put_md).  get_md
 * and put_md may be the same MD. */
int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t get_offset, ptl_handle_md_t put_md_handle,
                   ptl_size_t put_offset, ptl_size_t length, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
                   ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                   ptl_hdr_data_t hdr_data, ptl_op_t op, ptl_datatype_t datatype);
/* A fetching swap (op: PTL_SWAP, PTL_CSWAP*, PTL_MSWAP); operand: one
 * element of datatype, the comparand (CSWAP*) or the mask (MSWAP), unused
 * (may be NULL) for PTL_SWAP. */
int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t get_offset, ptl_handle_md_t put_md_handle,
            ptl_size_t put_offset, ptl_size_t length, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
            ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data,
            const void *operand, ptl_op_t op, ptl_datatype_t datatype);

/* ---------------------------------------------------------------- names */
const char *PtlErrorStr(int code);
const char *PtlEventKindStr(ptl_event_kind_t kind);

/* ================================================================ extensions */

/* Bootstrap hook: set before PtlInit/PtlNIInit to run without MPI (or on
 * another communicator).  The struct is copied. */
int PtlXBootstrap(const stp_boot_t *boot);

/* The mode of an NI: PTLX_IFACE_HOST or PTLX_IFACE_OFFLOAD. */
int PtlXNIMode(ptl_handle_ni_t ni_handle, ptl_interface_t *mode);

/* Memory that is registered already (and UCX-allocated: shared-memory
 * transports reach it with plain stores).  MDs over it pay no pinning or
 * registration; free it only after those MDs are unlinked. */
int PtlXMemAlloc(ptl_handle_ni_t ni_handle, ptl_size_t length, void **addr);
int PtlXMemFree(ptl_handle_ni_t ni_handle, void *addr);

/* A Put written in place (offload mode): the caller writes the data
 * straight into the target's memory where the Put would copy it, as a
 * NIC's doorbell write of a message built in place.  PtlXPutReserve finds
 * what a PtlPutRegion of len bytes to (target, pt, bits, roff) would reach
 * one-sidedly -- an event entry (ptl.h section 5) mapped here, room
 * reserved in it if it is locally managed -- and returns where the data
 * go; PTL_FAIL when there is none (host mode, a peer that is not mapped, a
 * full request buffer with none open after it, a truncating MD): the
 * caller then uses PtlPutRegion.  PtlXPutCommit posts the target's
 * PUT_END for len bytes at offset `at` of the room (match bits bits, which
 * the entry must match; PTLX_ARG_INVALID, the room given up, otherwise) --
 * the rest of the room stays unused, as does all of it after
 * PtlXPutCancel.  No initiator event: the data are in place when the
 * Commit returns.  Between Reserve and Commit/Cancel no thread of the
 * process may call ptl (the reservation holds the client's shortcut state;
 * a revocation of the entry waits for it). */
typedef struct ptlx_inplace {
  uint64_t opaque[8];
} ptlx_inplace_t;
int PtlXPutReserve(ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                   ptl_size_t remote_offset, ptl_size_t length, void **addr, ptlx_inplace_t *res);
int PtlXPutCommit(ptlx_inplace_t *res, ptl_size_t at, ptl_size_t length, ptl_match_bits_t match_bits,
                  ptl_hdr_data_t hdr_data);
void PtlXPutCancel(ptlx_inplace_t *res);

/* Unmap notices: cb(addr, len, arg) whenever a range of this process's
 * memory is unmapped (munmap, mremap, brk, a free() that returns memory
 * to the system), from the unmapping thread, before it is gone -- what a
 * registration cache needs so that it never hands out a registration of
 * memory that was replaced (UCX's memory hooks).  cb must not call ptl or
 * UCX, nor map or unmap memory.  One subscriber per process.  PTL_OK;
 * PTL_FAIL when the hooks are unavailable (UCX_MEM_MMAP_HOOK_MODE=none)
 * or taken.  cb NULL: unsubscribe. */
int PtlXUnmapNotify(void (*cb)(void *addr, ptl_size_t len, void *arg), void *arg);

#ifdef __cplusplus
}
#endif
#endif /* PTL_H */
