// `node dist/query.js http://127.0.0.1:PORT/api/v1`: one search through @paperlist/client, as JSON.
import { createClient, type PaperList } from '@paperlist/client';

const baseUrl = process.argv[2];
if (baseUrl === undefined) throw new Error('usage: node dist/query.js BASE_URL');
const client = createClient({ baseUrl });
const page: PaperList = await client.listPapers({ q: 'attention', items_per_page: 5 });
const first = page.results[0];
console.log(JSON.stringify({ count: page.count, ids: page.results.map((paper) => paper.id), firstTitle: first?.title ?? null }));
