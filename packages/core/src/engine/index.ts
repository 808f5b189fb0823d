export { IndexBuilder, type IndexData } from './builder.js';
export { Engine, type EngineAnswer } from './engine.js';
