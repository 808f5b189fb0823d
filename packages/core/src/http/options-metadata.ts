/**
 * The body of an `OPTIONS` answer, as Django REST Framework's `SimpleMetadata` wrote it for
 * the original read-only views.
 */
export function optionsMetadata(route: 'list' | 'retrieve'): string {
  return JSON.stringify({
    name: route === 'list' ? 'Paper List' : 'Paper Instance',
    description:
      route === 'list'
        ? 'Research papers: search with q, order with ordering, page with page and items_per_page.'
        : 'One research paper by its id.',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  });
}
