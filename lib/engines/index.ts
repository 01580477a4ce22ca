// The interpolation engines by name (`farkas check --engine NAME`).
import { lazyAbstraction } from './interpolation/lazy-abstraction.js';
import { symbolic } from './interpolation/symbolic.js';
import { lazyAnnotation } from './interpolation/lazy-annotation.js';
import type { Engine, EngineName } from './types.js';

export { ENGINE_NAMES } from './types.js';
export type { Engine, EngineName, EngineOptions, EngineResult, EngineStats } from './types.js';

const ENGINES: Partial<Record<EngineName, Engine>> = {
  'lazy-abstraction': lazyAbstraction,
  symbolic,
  'lazy-annotation': lazyAnnotation,
};

/** The engines implemented so far. */
export function availableEngines(): EngineName[] {
  return Object.keys(ENGINES) as EngineName[];
}

export function engineByName(name: EngineName): Engine | undefined {
  return ENGINES[name];
}
