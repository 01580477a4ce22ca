// Every limit of an analysis, declared once with its reason (as MiniSat declares its options), and
// the one clock: `Deadline`, the user's --timeout with the caller's abort signal, made where a
// command starts and handed down to every search.
//
// The limits count work — sizes, SAT conflicts and propagations, z3's resource units, interpreter
// steps, runs, solver queries — so that the same program and options give the same answer on an idle
// or a busy machine; past one, the step or search it bounds ends "unknown" with the reason, never a
// crash. The wall clock is only the user's --timeout (and the defaults of it below), and the waits of
// the infrastructure at the end, which change no answer.

// Sizes of one step. Past them a step would take minutes and gigabytes (a wrap-around in every
// branch of a path gives a guard with 2^k cases) and could not be solved anyway: WorkLimitExceeded
// stops it deterministically.

/** Cubes of one formula's disjunctive normal form (a VC's guard, a fact, a conclusion's negation). */
export const MAX_DNF_CUBES = 4096;
/** Cases of a path's guard used as they are in the premise of Farkas' lemma (constraints/farkas.ts):
 * a larger guard is weakened to this many. Of the dev-set tasks, four have larger guards: sumt4 (64
 * cases), nested_delay_nd and _notd2 (96), sumt6 (1024); none of them was proved before the limit. */
export const MAX_GUARD_CUBES = 16;
/** Farkas' lemma applications (premise cube × conclusion clause) in one step's constraint system. */
export const MAX_FARKAS_APPLICATIONS = 50_000;
/** Clauses of one step's CNF (about 100 bytes each while it is built). The largest step that proved
 * a dev-set task had 1.2 million; steps of 17 million never finished, and on one of 7 million the
 * step's propagation budget (SAT_STEP_PROPAGATIONS) allows about 9,000 conflicts. */
export const MAX_CNF_CLAUSES = 4_000_000;
/** Transitions of one path of the symbolic-execution engine, whose search recurses along the path
 * (an async recursion: a frame per transition); past it the engine answers unknown, not a stack
 * overflow (issue 20: 50,000 straight-line statements). */
export const MAX_SYMBOLIC_PATH = 1000;

// Work budgets of SAT searches, in conflicts and unit propagations (MiniSat's and z3's own counts;
// lib/sat/types.ts). Both, because a conflict's cost grows with the CNF: the embedded MiniSat meets
// 3,000 to 30,000 conflicts per second on small template steps and 500 on a step of 7 million
// clauses, while it does 1.5 to 2.7 million propagations per second on all of them (measured on the
// steps of loop-acceleration/diamond_1-1, ../shared/bench/svcomp). Propagations are counted by the
// embedded MiniSat only; z3 and the external solvers stop at the conflicts.

/** The SAT work of one solve or of a search: whichever runs out first ends it. */
export interface SatWork {
  readonly conflicts: number;
  readonly propagations: number;
}
/** One template step of verify (also each interprocedural step; a guided guess gets half). The
 * largest that proved a dev-set task used 23,000 conflicts (large_const, 1x2) and 3 s. */
export const SAT_STEP_CONFLICTS = 50_000;
/** The same step's propagations: about 15 s of the embedded MiniSat. A small step may need many per
 * conflict: the summary of a recursive sum that writes a global (cli/commands/verify.test.ts) takes
 * 15 million propagations and 30,000 conflicts on 97,000 clauses, where the 7-million-clause step
 * of diamond_1-1 takes 3,200 propagations per conflict. */
export const SAT_STEP_PROPAGATIONS = 30_000_000;
/** All template steps of one verify together, the search with procedure summaries too: about half a
 * minute of the embedded MiniSat (no dev-set task proved by a template step used more than 4 s). */
export const VERIFY_SAT_WORK: SatWork = { conflicts: 200_000, propagations: 60_000_000 };
/** The default back end races an installed cadical or kissat against the embedded MiniSat on
 * instances of this many clauses or more (lib/sat/racing-backend.ts): below, MiniSat answers in well
 * under a second and starting a process and writing the DIMACS file cost a good part of that. */
export const RACE_MIN_CLAUSES = 40_000;
/** ...and of at most this many: the external solvers are bounded by conflicts only, and a conflict on
 * millions of clauses costs so much that MiniSat's propagation budget must decide alone. */
export const RACE_MAX_CLAUSES = 2_000_000;
/** One query of a condition search (wp, sp, bounds, cex, nonterm; was 30 s). */
export const CONDITION_QUERY_CONFLICTS = 100_000;
/** The same query's propagations: about 25 s of the embedded MiniSat. */
export const CONDITION_QUERY_PROPAGATIONS = 50_000_000;

// Work budgets of the checker's searches, in z3's resource units (its `rlimit`: internal steps, the
// same on an idle or a busy machine; lib/certify/lia-solver.ts). A search bounded by them gives the same
// answer at any load; the user's --timeout is the only wall clock. z3 spends 300,000 to 1,000,000
// units per second of check on this project's machines, depending on the query (measured on the
// checks of benchmarks/ and of the tests); each budget is at least the time budget it replaced.

/** One check of a final certificate obligation (was 60 s). */
export const CERTIFICATE_CHECK_WORK = 25_000_000;
/** Verify's Houdini pass over the observed candidates, all its rounds (was 3 s). */
export const HOUDINI_WORK = 6_000_000;
/** Verify's Houdini passes start at the loop headers when the path cut-set has at least this many
 * times their VCs (a pass over the paths that ends without a proof is then what costs; on the
 * SV-COMP dev set, 27 of 194 tasks), else on the paths. A ratio of counts: the same at any load. */
export const HOUDINI_HEADERS_FIRST_VC_RATIO = 4;
/** Paths between cut-points beyond which a program is not analysed (PathExplosionError). */
export const MAX_PATHS = 50_000;
/** The loop headers' Houdini pass with remainder ghosts (verify.ts, proveAtHeaders) is not tried when
 * the ghosted program has more paths between its headers than this: each ghost splits every path
 * through it, and the VCs alone then take seconds (sumt6: 49,234 paths, 12 s and 1.7 GB before any
 * check), while the proofs it finds have at most 1,449 (sumt4). */
export const GHOSTED_HEADERS_MAX_PATHS = 5_000;
/** One Houdini round's check (was at most 1 s). A check that runs out drops every candidate at its
 * cut-point, so this errs on the large side: 400,000 emptied the ghosted multiple-of-three proof. */
export const HOUDINI_CHECK_WORK = 2_000_000;
/** One implication test while minimising a proved conjunction (was 200 ms). */
export const MINIMISE_CHECK_WORK = 200_000;
/** Checks spent making one certified answer's invariants readable (lib/certify/readable.ts): each
 * tries the invariants without one more conjunct. */
export const READABLE_INVARIANT_CHECKS = 8;
/** The sample search after a template step's SAT search ran out (engines/constraint/sample-search.ts):
 * its rounds (candidate, check, new conditions), the size its CNF may grow to, and the z3 work of
 * each certificate check. Its SAT solves together get the step's SAT work again (within the search's). */
export const SAMPLE_SEARCH_ROUNDS = 12;
export const SAMPLE_SEARCH_MAX_CLAUSES = 400_000;
export const SAMPLE_SEARCH_CHECK_WORK = 2_000_000;
/** The interpreter's run from each of the checker's counterexample states: its steps, and the states
 * along it (evenly spaced) that become conditions. */
export const SAMPLE_SEARCH_RUN_STEPS = 4_000;
export const SAMPLE_SEARCH_RUN_STATES = 32;
/** Checks spent moving the large constants of those invariants towards 0 (0 first, then halving):
 * a loose constant costs one check, a near-tight one two, a binary search the rest. */
export const READABLE_CONSTANT_CHECKS = 12;
/** One of those checks' z3 work (a weaker candidate that takes more is kept as it was, not shown). */
export const READABLE_CHECK_WORK = 2_000_000;
/** sp's Houdini pass over the observed postcondition candidates (was up to 30 s). */
export const OBSERVED_POST_WORK = 12_000_000;
/** Minimising sp's observed postcondition and its invariants (was at least 2 s). */
export const OBSERVED_POST_MINIMISE_WORK = 800_000;
/** wp's data-driven precondition search: Houdini under each candidate precondition, all of them
 * (was up to 60 s, a third of the time left). */
export const OBSERVED_PRE_TOTAL_WORK = 24_000_000;
/** One z3 query for a point inside a region (was 2 s). */
export const POINT_QUERY_WORK = 800_000;
/** A side question to z3 in a condition search or a witness (an implication, an equivalence, a point
 * beyond a relation; was 2–5 s). */
export const SIDE_QUERY_WORK = 2_000_000;
/** One z3 query of an interpolation engine (path feasibility, a node's satisfiability; was 10–30 s). */
export const ENGINE_QUERY_WORK = 4_000_000;
/** The falsifier's bounded model checking (lib/falsify/bmc.ts): the depths it searches in turn
 * (region steps: from the entry to a loop head, one iteration, …), the z3 work of one query, the
 * size an unrolling may grow to, and the work of its rounds. The first round comes before the first
 * template step and is cheap; each later one before the next step; what is left after the schedule.
 * Its queries are slow per unit: 15,000 to 300,000 units a second (fig1's unrolling to 96 steps, 20 s
 * for 320,000 units; f3's to 32, 0.2 s for 60,000), so its budgets are small against the others. */
export const BMC_DEPTHS: readonly number[] = [1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256];
export const BMC_CHECK_WORK = 1_000_000;
export const BMC_MAX_ASSERTIONS = 200_000;
export const BMC_FIRST_ROUND_WORK = 100_000;
export const BMC_ROUND_WORK = 100_000;
export const BMC_WORK = 400_000;

/** z3 work (resource units) for checking one Horn clause under a model (lib/chc/model.ts): the
 * clause as written, with each predicate replaced by its interpretation. Generous: a sat answer
 * waits for it, and a clause of the dev sets checks in far fewer. */
export const CHC_MODEL_CHECK_WORK = 50_000_000;
/** Nonlinear Horn clauses: predicates on no cycle of clauses are resolved away (lib/chc/eliminate.ts)
 * while the system keeps at most this many times its clauses (plus the constant) and this many times
 * its S-expression nodes: a use of P becomes one clause per definition of P, so chains of
 * definitions with several clauses each multiply. */
export const CHC_ELIMINATION_CLAUSE_GROWTH = 4;
export const CHC_ELIMINATION_EXTRA_CLAUSES = 64;
export const CHC_ELIMINATION_NODE_GROWTH = 8;
/** Horn clauses solved on the clauses (lib/chc/clause-solver.ts). The unfolding of derivation trees: the z3 work of
 * one depth's query, of all depths, and the clause instances a tree may have (it grows with the
 * clauses' branching, exponentially in the depth). Houdini over mined atoms: the work of one check,
 * the checks in all, and the candidates per predicate. The unfolding's checks run after z3's
 * preprocessing, which counts many units for little time (a chain of 13 rust-horn instances: 3.5
 * million units in 60 ms), hence larger limits than for the SMT core alone (2 and 6 million). */
export const CHC_UNFOLD_CHECK_WORK = 4_000_000;
export const CHC_UNFOLD_WORK = 24_000_000;
/** The unfolding's work before the proof search and between two of its steps. */
export const CHC_UNFOLD_ROUND_WORK = 300_000;
/** The depths searched in turn (a depth's query covers every shallower derivation; a transition
 * system's chains go one length at a time instead: lib/chc/unfold.ts) and how many queries one
 * round may make: each query is a fresh z3 job, whose start costs more than a shallow one. */
export const CHC_UNFOLD_DEPTHS: readonly number[] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64, 80, 96, 128];
export const CHC_UNFOLD_ROUND_CHECKS = 6;
export const CHC_UNFOLD_MAX_NODES = 4_000;
/** Linear systems: the unfolding's work on the clauses before the engines on the graph run: the
 * chains of the Lustre systems of the vmt benchmarks, up to 24 instances, take 11 million. */
export const CHC_LINEAR_UNFOLD_WORK = 12_000_000;
export const CHC_HOUDINI_CHECK_WORK = 2_000_000;
export const CHC_HOUDINI_QUERIES = 2_000;
/** Houdini asks for a model breaking at most this many of a fact's candidates at once. */
export const CHC_HOUDINI_GOAL_ATOMS = 100;
export const CHC_MAX_CANDIDATES = 300;
/** Houdini's implications (a mined atom over one argument ⇒ another candidate): for predicates of at
 * most this many arguments, at most this many per predicate. */
export const CHC_IMPLICATION_MAX_ARGS = 8;
export const CHC_MAX_IMPLICATIONS = 1000;
/** Houdini's survivors implied by the others are dropped (one check each) up to this many atoms. */
export const CHC_PRUNE_MAX_ATOMS = 200;
/** z3 checks, in all predicates, that drop Houdini's survivors the others imply. */
export const CHC_PRUNE_CHECKS = 120;
/** Concrete derivations (lib/chc/runs.ts): the clause instances computed in all, the z3 checks that
 * choose values the clauses leave open (a fact's range, a nondeterministic step) and the work of
 * each, the distinct initial states drawn from each fact, and the combinations of body facts one
 * nonlinear clause is tried on per new fact. */
export const CHC_RUN_STEPS = 20_000;
export const CHC_RUN_SOLVER_CHECKS = 128;
/** The SMT-LIB text those checks may send in all (characters): z3 parses a step's whole constraint at
 * each check, ~50 ms for the 40 KB of a big Lustre circuit in the WASM build. */
export const CHC_RUN_SOLVER_TEXT = 2_000_000;
export const CHC_RUN_CHECK_WORK = 200_000;
export const CHC_RUN_INITIAL_STATES = 4;
/** The second round of initial states (runs.ts): how many more per fact, how many of a fact's read
 * arguments they set to combinations of small values, and the clause instances of their runs. */
export const CHC_RUN_MORE_INITIAL_STATES = 12;
export const CHC_RUN_TARGET_ARGUMENTS = 6;
export const CHC_RUN_MORE_STEPS = 5_000;
export const CHC_RUN_COMBINATIONS = 16;
/** Derived states per predicate that candidates are built from and filtered by (evenly spread over
 * the derivation when there are more). */
export const CHC_RUN_SAMPLE_STATES = 1_000;
/** Clause instances each Houdini counterexample is run forward by (propagation only, no z3). */
export const CHC_HOUDINI_RUN_STEPS = 2_000;
/** Candidates the derived states propose per predicate (before the states filter them). */
export const CHC_MAX_RUN_CANDIDATES = 1_500;
/** Guards per predicate that its derived-state candidates are split by, its clauses' and those
 * carried through the clauses from the predicates before it, in so many passes (images.ts). */
export const CHC_MAX_GUARDS = 24;
export const CHC_GUARD_PASSES = 8;
/** Equalities one Houdini counterexample combines with the first it breaks (their affine join). */
export const CHC_JOIN_MAX_EQUALITIES = 64;
/** The largest coefficient (in absolute value) of a hull equality the derived states propose. */
export const CHC_MAX_HULL_COEFFICIENT = 1_000n;
/** Hull facets over each pair of arguments the derived states propose (lib/observe/facets.ts). */
export const CHC_PLANAR_FACETS = 4;
/** The step effects of a predicate's loop whose derived states propose their affine hull (the
 * largest groups, of at least so many states: lib/chc/clause-solver.ts, phaseEqualities). */
export const CHC_PHASE_GROUPS = 8;
export const CHC_PHASE_GROUP_STATES = 4;
/** The states of a group whose affine hull is computed (spread over the group; the rest check it). */
export const CHC_PHASE_GROUP_HULL_STATES = 64;
/** A loop's step repeated in one go (lib/chc/accelerate.ts): tried once the step has repeated this
 * many times for every argument, over at most this many steps (a phase can last 10^8 steps; the
 * values stay far below CHC_RUN_MODERATE_VALUE). */
export const CHC_RUN_JUMP_AFTER = 3;
export const CHC_RUN_MAX_JUMP = 1n << 32n;
/** Jumps in all: enough for the phases of a loop and a few turns of a cyclic one; more turns add
 * states like those before, and candidates that hold on them all and cost Houdini checks. */
export const CHC_RUN_MAX_JUMPS = 8;
/** Points per predicate where a loop's step changes (phase starts) that become guards. */
export const CHC_RUN_PHASE_STARTS = 2;
/** Derived states with a value this large (a product in each step) filter candidates but propose
 * none: their hulls cost more than they tell. */
export const CHC_RUN_MODERATE_VALUE = 1n << 62n;
/** Divisors that get residue variables (lib/chc/features.ts; each adds one per integer argument). */
export const CHC_RESIDUE_DIVISORS = 3;
/** Nodes of an interpolation engine's abstract reachability tree or search (`--max-nodes`). */
export const ENGINE_MAX_NODES = 20_000;

// Work budgets of concrete runs, in interpreter steps (the interpreter runs about 3,000 steps per
// millisecond here); each replaced a time budget of about the same length.

/** verify's sampling: all runs of one pass of sampleStates (about a second of an idle machine; most
 * programs need a tenth of it, and only runs that go on for millions of steps, a loop to 10^6, meet
 * it); the same states are sampled on an idle and on a busy machine (issue 20). */
export const SAMPLE_STEPS = 3_000_000;
/** Of them, the guided runs at most (observe/guided-inputs.ts: values solved from the program's
 * conditions, its types' limits and constants), which come last and only look for failures: a sixth,
 * so that they never cost a program more than that where the other runs leave the budget open. */
export const GUIDED_SAMPLE_STEPS = 500_000;
/** The guided runs also try every value between the least and the greatest solved one at the first
 * read when they span at most this many (samples.ts). */
export const SMALL_DOMAIN = 2048;
/** The one run of a function that reads no input, whose states may be its invariants (observe/single-run.ts). */
export const SINGLE_RUN_STEPS = 100_000;
/** Most distinct states at one cut-point for the single run's states to be an invariant (a disjunct each). */
export const SINGLE_RUN_STATES = 32;
/** The run of a function that reads no input, to its end (observe/samples.ts, wholeRun): Mono4_1's
 * loop to 10^6 fails after 3.5 million steps, Mono3_1's after 6 million; about 3 s of an idle machine. */
export const WHOLE_RUN_STEPS = 30_000_000;
/** The same run's steps with its repeating loops in closed form (interpreter/accelerate.ts), which
 * WHOLE_RUN_STEPS then bounds the interpreted ones of: a loop of 2^28 iterations (simple_1-1, 400
 * million steps) costs a few of them, while a run that does not repeat stops where it did. */
export const WHOLE_RUN_ACCELERATED_STEPS = 1_000_000_000_000;
/** Corners of that run's path kept at each cut-point (a loop with phases has a few; a nested loop's
 * inner head turns at every outer iteration). */
export const WHOLE_RUN_CORNERS = 64;
/** All runs of one pass of sampleBadStates. */
export const BAD_STATE_STEPS = 1_000_000;
/** All runs of sampleCalls (half of them for the program's own runs). */
export const CALL_SAMPLE_STEPS = 1_000_000;
/** All observation runs of bounds for one function: about 800 runs of a few thousand steps. */
export const OBSERVATION_STEPS = 3_000_000;
/** Breadth-first exploration of nondet streams: runs, and steps over all of them. */
export const EXPLORED_RUNS = 2000;
export const EXPLORED_STEPS = 1_000_000;
/** sp: traced runs from the reached states whose states feed the candidates at the cut-points … */
export const POST_TRACED_RUNS = 120;
/** … and its breadth-first exploration (5000 runs reach the speedometer's second whole second). */
export const POST_EXPLORED_RUNS = 5000;
/** Runs of the breadth-first exploration for the states reachable at a point (sp's target). */
export const REACHABLE_EXPLORED_RUNS = 1500;
/** The claim guard (lib/guard): interpreter steps all runs of one claim take together at most (a
 * fifteenth of the observation runs' OBSERVATION_STEPS) … */
export const GUARD_STEPS = 200_000;
/** … and one of its runs; as the observation runs, enough for a few thousand iterations. */
export const GUARD_RUN_STEPS = 8000;
/** A search for a failing input inside a region (a neighbour of a precondition): grid points, then
 * points z3 finds (was 3 s). */
export const REGION_FAILURE_STEPS = 9_000_000;
/** The same for wp's neighbour witnesses of a plain answer (was 2 s). */
export const NEIGHBOUR_FAILURE_STEPS = 6_000_000;
/** The same for a shifted atom's slab (was 1 s). */
export const SLAB_FAILURE_STEPS = 3_000_000;
/** The same before wp's observed search tries a weaker precondition (was 300 ms). */
export const WEAKER_FAILURE_STEPS = 1_000_000;
/** cex: the first failing input among the sampled ones, and a failing input inside an answer (was 5 s). */
export const CEX_FAILURE_STEPS = 15_000_000;
/** wp's sampled inputs (was 4 s). */
export const WP_SAMPLE_STEPS = 12_000_000;

// Steps of one concrete run (the interpreter's edges). A run past its limit ends "step-limit", which
// every caller takes as "has not returned yet", never as a failure: these bound work, not answers'
// soundness. The budgets over many runs are above.

/** A traced run sampled for the states it reaches (verify's sampling, exploration, sp's runs, the
 * overflow probe). */
export const SAMPLED_RUN_STEPS = 4000;
/** An untraced run of verify's sampling that looks for a failure needing many iterations. */
export const LONG_RUN_STEPS = 300_000;
/** A run from a state a candidate invariant must exclude, towards a failing assertion. */
export const BAD_STATE_RUN_STEPS = 1000;
/** A run whose calls are observed for procedure summaries. */
export const CALL_SAMPLE_RUN_STEPS = 20_000;
/** A run on one input of a condition search's input runner (wp, the regions' failure searches). */
export const INPUT_RUN_STEPS = 3000;
/** cex's runs on candidate inputs, after a first pass of BAD_STATE_RUN_STEPS. */
export const CEX_INPUT_RUN_STEPS = 20_000;
/** cex on a function without inputs: its one run. */
export const CEX_NO_INPUT_RUN_STEPS = 100_000;
/** Re-running a witness or a claim's own input, which may run long before it reaches its point. */
export const REPLAY_RUN_STEPS = 100_000;
/** A replay of a run on the original program gets twice the run's steps, at least the run's steps
 * plus these: the original may take more than the prepared program (inlined calls, expanded paths;
 * a call's edges in every iteration of a loop that runs millions of times). */
export const REPLAY_SLACK_STEPS = 1000;
/** The steps a replay interprets one by one, its loops that repeat in closed form (the whole run's
 * replay: twice its WHOLE_RUN_STEPS). */
export const REPLAY_WORK = 60_000_000;
/** One run of bounds' observations of the loops' iterations. */
export const ITERATION_RUN_STEPS = 8000;
/** One run of bounds' observations of a recursive procedure's calls. */
export const CALL_COUNT_RUN_STEPS = 50_000;
/** The bound guard's run of the original program on one input (the tests' oracle too). */
export const COUNTED_RUN_STEPS = 200_000;
/** nonterm: an input inside a recurrent set is shown to run on past this many steps … */
export const NONTERM_SHOWN_RUN_STEPS = 2000;
/** … found among this many candidate inputs. */
export const NONTERM_SHOWN_INPUTS = 4000;
/** verify --property termination: ranking functions tried per loop (its exit conditions, both ways). */
export const RANKING_CANDIDATES = 4;
/** verify --property termination: candidates for a recursion's ranking function run on the guard's
 * inputs (of which at most RANKING_CANDIDATES, the ones no run contradicts, go to the engine). */
export const RECURSION_RANKING_CANDIDATES = 40;
/** verify --property termination: a loop's candidates (plain and multiphase) run on the guard's inputs,
 * at most this many interpreter steps each (of which at most RANKING_CANDIDATES go to the engine). */
export const PHASED_RANKING_CANDIDATES = 120;
export const RANKING_FILTER_STEPS = 20_000;
/** verify --property termination: candidate inputs run to see whether one goes past
 * NONTERM_SHOWN_RUN_STEPS (then the recurrent set is looked for before the bounds). */
export const TERMINATION_PROBE_INPUTS = 64;
/** The UI's trace of a counterexample, and the longest failing run `farkas run` replays with a trace
 * to show its visited lines. */
export const TRACE_RUN_STEPS = 200_000;

// Solver queries of condition searches (a count, so that the same answers come on any machine).

/** Least number of solver queries each answer of wp/cex/nonterm after the first may take. */
export const FURTHER_ANSWER_MIN_QUERIES = 20;
/** wp: moves to a weaker neighbour (each a query) after an answer is found. */
export const WEAKER_NEIGHBOUR_MOVES = 8;
/** sp: queries for the template search to strengthen the data-driven answer. */
export const STRENGTHEN_QUERIES = 10;

// The user's clock: defaults of --timeout where a command needs one, and what is too little of it
// to start a further search.

/** The whole search of wp, sp, bounds, cex and nonterm when the caller sets no --timeout (the CLI's
 * default too): the user's clock, the only one. */
export const CONDITION_SEARCH_TIMEOUT_MS = 300_000;
/** `verify --cex` without --timeout: the failing-condition search after an "unknown" verdict. */
export const CEX_AFTER_VERIFY_TIMEOUT_MS = 120_000;
/** Less time left than this after verify's search: `verify --cex` does not start the search. */
export const CEX_AFTER_VERIFY_MIN_MS = 2000;
/** Less time left than this after nonterm's search for a recurrent set: no termination proof starts. */
export const TERMINATION_PROOF_MIN_MS = 1000;
/** Each interpolation engine in a cross-check when the caller sets no time bound (`farkas check`
 * without --timeout); the constraint engine keeps its own work budgets. */
export const CROSS_CHECK_ENGINE_TIMEOUT_MS = 60_000;
/** The same in the UI's Engines pane, which runs beside the user's editing. */
export const UI_CROSS_CHECK_ENGINE_TIMEOUT_MS = 20_000;
/** A cross-check's comparison of the engines' invariants with the constraint engine's (z3 queries). */
export const INVARIANT_COMPARISON_TIMEOUT_MS = 10_000;

// Waits of the infrastructure, not budgets of a search: they change no answer.

/** Slack after the --timeout before the portfolio terminates workers that overran it (a certificate
 * check may take up to a second past it, as in the sequential search). */
export const WORKER_OVERRUN_GRACE_MS = 1000;
/** The bound of the checker's first query, made to start z3 ahead of the search (its answer is not
 * used), in z3's work units. */
export const CHECKER_WARM_UP_WORK = 1_000_000;
/** After a z3 check, the time its threads get to return to the pool before z3 is shut down. */
export const Z3_THREAD_SETTLE_MS = 1000;

// The clock, and the budgets that searches spend.

/**
 * The one wall clock of an analysis and its cancellation: the user's --timeout as a deadline, and the
 * caller's AbortSignal. Made once where a command starts and handed down; the searches below ask it
 * whether to go on, while their own budgets count work (the constants of this file), so that it is
 * the only reading of the clock that can change an answer.
 */
export class Deadline {
  readonly started: number;
  /** Epoch milliseconds; Infinity without a --timeout. */
  readonly at: number;

  /** `ms` from `started` (none: unbounded). Commands make theirs in lib/settings.ts. */
  constructor(ms?: number, readonly signal?: AbortSignal, started = Date.now()) {
    this.started = started;
    this.at = ms === undefined ? Infinity : started + ms;
  }

  /** The deadline at epoch milliseconds `at` (a worker thread's copy of its command's). */
  static until(at: number, signal?: AbortSignal): Deadline {
    const now = Date.now();
    return new Deadline(at - now, signal, now);
  }

  /** True when the user gave a --timeout. */
  get bounded(): boolean {
    return Number.isFinite(this.at);
  }

  get passed(): boolean {
    return Date.now() >= this.at;
  }

  get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  /** Milliseconds left (Infinity without a --timeout; zero or less once passed). */
  get left(): number {
    return this.at - Date.now();
  }

  /** The time limit of one solver check or solve (its `timeLimitMs`): what is left, at least 1 ms;
   * none without a --timeout. */
  get timeLimit(): { readonly timeLimitMs?: number } {
    return this.bounded ? { timeLimitMs: Math.max(1, this.left) } : {};
  }

  get elapsedMillis(): number {
    return Date.now() - this.started;
  }

  /** Throws DeadlineExceeded once the deadline has passed (inside long synchronous work). */
  check(): void {
    if (Date.now() > this.at) throw new DeadlineExceeded();
  }

  /** The earlier of this deadline and `ms` from now (a part of the work with a limit of its own). */
  within(ms: number): Deadline {
    const now = Date.now();
    return new Deadline(Math.min(this.at - now, ms), this.signal, now);
  }

  /** The same deadline moved by `ms` (the grace before overrunning workers are stopped). */
  extended(ms: number): Deadline {
    return new Deadline(this.bounded ? this.at + ms - this.started : undefined, this.signal, this.started);
  }

  /** A deadline for the first of several parts of the work: `fraction` of the time left (the caller's
   * signal stays); unbounded without a --timeout. */
  part(fraction: number): Deadline {
    return new Deadline(this.bounded ? Math.max(1, this.left * fraction) : undefined, this.signal);
  }

  /** The "unknown" reason once it has passed: `timeout after N s (detail)`. */
  timeoutReason(detail?: string): string {
    return `timeout after ${Math.round(this.elapsedMillis / 1000)} s${detail ? ` (${detail})` : ''}`;
  }
}

export class DeadlineExceeded extends Error {
  constructor() {
    super('deadline passed');
    this.name = 'DeadlineExceeded';
  }
}

/** A size limit above was reached; the message says which (it is the "unknown" reason). */
export class WorkLimitExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkLimitExceeded';
  }
}

/**
 * Why building a search step stopped: past the deadline (the search then ends "unknown (timeout)") or
 * past a size limit (only that step is skipped, with the reason: the other steps differ in template
 * shape and facts). Any other error is rethrown.
 */
export function stepBuildStopped(e: unknown): { readonly timeout: true } | { readonly timeout: false; readonly reason: string } {
  if (e instanceof DeadlineExceeded) return { timeout: true };
  if (e instanceof WorkLimitExceeded) return { timeout: false, reason: e.message };
  throw e;
}

/**
 * The limits of one SAT search step: its work, and a time limit only where the user gave one —
 * a step's own (`--step-timeout`, a schedule step's `timeout`) and the rest of the --timeout.
 */
export function satStepLimits(work: SatWork, stepLimitMs: number | undefined, deadline: Deadline): SatWork & { readonly timeLimitMs?: number; readonly signal?: AbortSignal } {
  const timeLimitMs = Math.min(stepLimitMs ?? Infinity, deadline.left);
  const signal = deadline.signal ? { signal: deadline.signal } : {};
  return Number.isFinite(timeLimitMs) ? { ...work, ...signal, timeLimitMs: Math.max(1, timeLimitMs) } : { ...work, ...signal };
}

/** Work left to a search: each check gets at most what is left, and pays what it used. */
export class WorkBudget {
  private spent = 0;

  constructor(readonly limit: number) {}

  get left(): number {
    return Math.max(0, this.limit - this.spent);
  }

  get exhausted(): boolean {
    return this.spent >= this.limit;
  }

  /** The work for the next check: `cap`, or what is left when that is less. */
  next(cap: number): number {
    return Math.min(cap, this.left);
  }

  charge(units: number): void {
    this.spent += units;
  }
}

/** SAT work left to a search of several solves: each solve gets at most what is left of both. */
export class SatWorkBudget {
  private readonly conflicts: WorkBudget;
  private readonly propagations: WorkBudget;

  constructor(readonly limit: SatWork) {
    this.conflicts = new WorkBudget(limit.conflicts);
    this.propagations = new WorkBudget(limit.propagations);
  }

  get exhausted(): boolean {
    return this.conflicts.exhausted || this.propagations.exhausted;
  }

  /** The work for the next solve: `cap`, or what is left where that is less. */
  next(cap: SatWork): SatWork {
    return { conflicts: this.conflicts.next(cap.conflicts), propagations: this.propagations.next(cap.propagations) };
  }

  /** Pays a solve's work (a back end that does not count propagations pays conflicts only). */
  charge(done: { readonly conflicts?: number; readonly propagations?: number }): void {
    this.conflicts.charge(done.conflicts ?? 0);
    this.propagations.charge(done.propagations ?? 0);
  }

  /** The limit, for an "unknown" reason. */
  describe(): string {
    return `${this.limit.conflicts} conflicts or ${this.limit.propagations} propagations`;
  }
}
