/** What the transparency answers say, in Portuguese, byte for byte (spec 7.2 and our own). */
export const MESSAGES = {
  success: 'Dados recuperados com sucesso',
  invalidId: 'Identificador inválido.',
  notFound: 'Registro não encontrado.',
  versionNotFound: 'Versão não encontrada.',
  organizationNotFound: 'Organização não encontrada.',
  routeNotFound: 'Rota não encontrada.',
  internal: 'Erro interno do servidor.',
  tooManyRequests: 'Muitas requisições deste endereço. Tente novamente em alguns segundos.',
  exportsBusy: 'Exportações demais em andamento. Tente novamente em alguns instantes.',
  exportRunning: 'Já há uma exportação deste endereço em andamento. Aguarde o fim dela.',
  exportTimeout: 'A exportação demorou demais. Tente com filtros mais restritos.',
  researchesBusy: 'Pesquisas de preços demais em andamento. Tente novamente em alguns instantes.',
  researchRunning: 'Já há uma pesquisa de preços deste endereço em andamento. Aguarde o fim dela.',
  waitsBusy: 'Esperas demais por novidades deste endereço. Tente novamente em alguns instantes.',
  unavailable: 'Serviço temporariamente indisponível. Tente novamente em alguns instantes.',
  queryTimeout:
    'A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.',
} as const

/** What the order query answers (spec 7.1, 7.2), byte for byte, and our generic 500. */
export const ORDER_MESSAGES = {
  success: 'Ordem recuperada com sucesso',
  changes: 'Alterações recuperadas com sucesso',
  unauthorized: 'Unauthorized',
  tooManyRequests: 'Too Many Requests',
  orderNumberRequired: 'Número da ordem é obrigatório',
  notFound: 'Ordem não encontrada',
  internal: 'Erro interno do servidor',
} as const
