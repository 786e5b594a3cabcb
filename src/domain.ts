// The closed vocabularies of the platform. Their order gives the stable ids of the lookup tables
// (id = index + 1), which migrations/0001_data_model.sql seeds and a test keeps in step.

/** Spec 2.3: the exact modality strings. */
export const BIDDING_MODALITIES = [
  'Adesão',
  'Pregão Eletrônico',
  'Pregão Presencial',
  'Tomada de Preço',
  'Concorrência - Presencial',
  'Chamamento Público',
  'Carta Convite',
  'Dispensa sem Disputa',
  'Inexigibilidade',
  'Leilão Presencial',
  'Regime Diferenciado de Contratação',
  'Dispensa Eletrônica',
  'Diálogo Competitivo',
  'Procedimento da Lei 13.393/2016',
  'Concurso',
  'Concorrência - Eletrônica',
  'Manifestação de Interesse',
  'Pré-Qualificação',
  'Credenciamento',
  'Leilão Eletrônico',
] as const

/** Spec 3: an order's status_title. */
export const ORDER_STATUSES = [
  'Emitida',
  'Recebido total',
  'Recebido parcialmente',
  'Recebido provisoriamente',
] as const

/** The status of a direct contract or public call (spec 2.8 leaves the values open; these are ours). */
export const BIDDING_STATUSES = [
  'Publicado',
  'Em disputa',
  'Em julgamento',
  'Em habilitação',
  'Em recurso',
  'Adjudicado',
  'Homologado',
  'Suspenso',
  'Revogado',
  'Anulado',
  'Deserto',
  'Fracassado',
  'Cancelado',
  'Concluído',
] as const

/** The management (execution) status of a contract or ARP (the interface does not list them: open). */
export const MANAGEMENT_STATUSES = [
  'Aguardando assinatura',
  'Vigente',
  'Suspenso',
  'Encerrado',
  'Rescindido',
  'Cancelado',
] as const

export type BiddingModality = (typeof BIDDING_MODALITIES)[number]
export type OrderStatus = (typeof ORDER_STATUSES)[number]
export type BiddingStatus = (typeof BIDDING_STATUSES)[number]
export type ManagementStatus = (typeof MANAGEMENT_STATUSES)[number]

export const RECORD_TYPES = [
  'organization',
  'order',
  'contract',
  'direct_contract',
  'public_call',
  'arp',
] as const
export type RecordType = (typeof RECORD_TYPES)[number]

/** Where a price of the research comes from: an item of a supply order, or a result of a contratação. */
export const PRICE_SOURCES = ['order', 'result'] as const
export type PriceSource = (typeof PRICE_SOURCES)[number]
