import { definePaperSourceSuite } from '@paperlist/conformance';
import { createMemorySource } from '../src/index.js';

definePaperSourceSuite({ name: 'memory engine', create: async (papers) => createMemorySource(papers) });

definePaperSourceSuite({ name: 'memory engine on 2 query threads', create: async (papers) => createMemorySource(papers, { threads: 2 }) });
