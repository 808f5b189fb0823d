import { definePaperSourceSuite } from '@paperlist/conformance';
import { createMemorySource } from '../src/index.js';

definePaperSourceSuite({ name: 'memory engine', create: async (papers) => createMemorySource(papers) });
