/** The facet requests both extension benchmarks time (the memory source's, and `--query-mode sql`'s): name and query string. */
const FACETS = 'facets=year,venue,proceeding&facet_limit=20&count_only=1';

export const FACET_REQUESTS: readonly (readonly [name: string, query: string])[] = [
  ['facets, every paper', FACETS],
  ['facets, year=2010-', `year=2010-&${FACETS}`],
  ['facets, q=learning', `q=learning&${FACETS}`],
  ['facets, q=a (broad prefix)', `q=a&${FACETS}`],
  ['facets, author=a', `author=a&${FACETS}`],
  ['facets, q=graph neural&venue=neurips', `q=graph+neural&venue=neurips&${FACETS}`],
  ['author facet, every paper', 'facets=author&facet_limit=20&count_only=1'],
  ['author facet, q=learning, 1,000 names', 'q=learning&facets=author&facet_limit=1000&count_only=1'],
  ['author facet, author=a, 1,000 names', 'author=a&facets=author&facet_limit=1000&count_only=1'],
  ['facets with a page of 50', 'facets=year,venue,proceeding&q=transformer&ordering=-published'],
];
