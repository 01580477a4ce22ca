// The engines by name (`farkas check --engine NAME`, the cross-check, the portfolio's engine
// configurations, the UI's Engines pane): the constraint engine first, then the interpolation engines.
import { runConstraintEngine } from './constraint/engine.js';
import { lazyAbstraction } from './interpolation/lazy-abstraction.js';
import { symbolic } from './interpolation/symbolic.js';
import { lazyAnnotation } from './interpolation/lazy-annotation.js';
import { CONSTRAINT_ENGINE, type Engine, type EngineName, type InterpolationEngineName } from './types.js';

export { CONSTRAINT_ENGINE, ENGINE_NAMES, INTERPOLATION_ENGINE_NAMES } from './types.js';
export type { ConstraintEngineStats, Engine, EngineName, EngineOptions, EngineResult, EngineStats, InterpolationEngineName, InterpolationEngineStats } from './types.js';
export type { AttemptInfo, VerifySearch } from './constraint/verify.js';

type RegisteredEngine = Engine & { readonly name: EngineName };

/** The constraint engine: `farkas verify`'s search (paper 004), the reference of the cross-check. */
export const constraintEngine: RegisteredEngine = {
  name: CONSTRAINT_ENGINE,
  description: 'constraint solving (paper 004): invariant templates, Farkas\' lemma, SAT; the search of farkas verify',
  run: runConstraintEngine,
};

const ENGINES: readonly RegisteredEngine[] = [
  constraintEngine,
  {
    name: 'lazy-abstraction',
    description: 'lazy abstraction (paper 002): abstract reachability tree refined by sequence interpolants',
    run: lazyAbstraction,
  },
  {
    name: 'symbolic',
    description: 'symbolic execution (papers 001/003): interpolants, subsumption and loop abstraction',
    run: symbolic,
  },
  {
    name: 'lazy-annotation',
    description: 'lazy annotation (paper 000): learned labels, a time-to-live bound on loops, the inductive subset',
    run: lazyAnnotation,
  },
];

/** The names of the engines implemented so far, the constraint engine first. */
export function availableEngines(): EngineName[] {
  return ENGINES.map((e) => e.name);
}

/** The engines themselves, in the order of `availableEngines()`. */
export function registeredEngines(): readonly Engine[] {
  return ENGINES;
}

export function engineByName(name: string): Engine | undefined {
  return ENGINES.find((e) => e.name === name);
}

/** The engines other than the constraint engine, whose search the portfolio splits into lanes instead. */
export function interpolationEngines(): InterpolationEngineName[] {
  return availableEngines().filter(isInterpolationEngine);
}

function isInterpolationEngine(name: EngineName): name is InterpolationEngineName {
  return name !== CONSTRAINT_ENGINE;
}
