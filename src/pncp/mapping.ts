import { v5 as uuidv5 } from 'uuid'
import type { BiddingModality, BiddingStatus } from '../domain.js'
import type { ImportRecord } from '../resources/fields.js'
import type {
  ArpRecord,
  BiddingRecord,
  ContractRecord,
  ImportLine,
  OrganizationRecord,
} from '../resources/index.js'
import type { TenderItem, TenderResult } from '../resources/pncp.js'

// PNCP's records in the platform's import format, field by field as docs/pncp-mapping.md says. A record
// that cannot be mapped gives its problems, each naming PNCP's own field.

/** The namespace of every id derived from PNCP (UUIDv5): two machines importing one file give one id. */
export const PNCP_NAMESPACE = '36c54d94-bec0-44b6-9c6e-8633028834fb'

/**
 * The mapping's version: raised when a change makes files already imported map to other records, so that the
 * next import reads them again (src/pncp/ledger.ts).
 */
export const MAPPING_VERSION = 'pncp-3'

/** Where PNCP shows a record to people. */
export const PNCP_PAGES = 'https://pncp.gov.br/app'

/** The kinds of record PNCP's consultation API serves. */
export const PNCP_KINDS = ['contratacao', 'contrato', 'ata', 'termo', 'item', 'resultado'] as const
export type PncpKind = (typeof PNCP_KINDS)[number]

/** The kinds that come inside another record's line: a contratação's items and results, a contrato's termos. */
export const CHILD_KINDS: ReadonlySet<PncpKind> = new Set(['item', 'resultado', 'termo'])

/** An organization's id: the UUIDv5 of its 14-digit CNPJ. */
export const organizationId = (cnpj: string) => uuidv5(cnpj, PNCP_NAMESPACE)
/** A record's id: the UUIDv5 of its numeroControlePNCP. */
export const recordId = (pncpId: string) => uuidv5(pncpId, PNCP_NAMESPACE)

/** The kind of a record, from the fields only it has. */
export function kindOf(raw: Record<string, unknown>): PncpKind | undefined {
  if ('numeroControlePNCPAta' in raw || 'numeroAtaRegistroPreco' in raw) return 'ata'
  if ('numeroTermoContrato' in raw || 'tipoTermoContratoId' in raw || 'sequencialTermoContrato' in raw)
    return 'termo'
  if ('numeroContratoEmpenho' in raw || 'tipoContrato' in raw) return 'contrato'
  if ('modalidadeId' in raw && 'objetoCompra' in raw) return 'contratacao'
  if ('numeroItem' in raw && ('valorUnitarioHomologado' in raw || 'niFornecedor' in raw)) return 'resultado'
  if ('numeroItem' in raw && 'descricao' in raw) return 'item'
  return undefined
}

/** The fields this version reads or knowingly leaves, per kind: any other is counted as new. */
const KNOWN: Readonly<Record<PncpKind, ReadonlySet<string>>> = {
  ata: new Set([
    'numeroControlePNCPAta',
    'numeroAtaRegistroPreco',
    'anoAta',
    'numeroControlePNCPCompra',
    'cancelado',
    'dataCancelamento',
    'dataAssinatura',
    'vigenciaInicio',
    'vigenciaFim',
    'dataPublicacaoPncp',
    'dataInclusao',
    'dataAtualizacao',
    'dataAtualizacaoGlobal',
    'usuario',
    'objetoContratacao',
    'cnpjOrgao',
    'nomeOrgao',
    'cnpjOrgaoSubrogado',
    'nomeOrgaoSubrogado',
    'codigoUnidadeOrgao',
    'nomeUnidadeOrgao',
    'codigoUnidadeOrgaoSubrogado',
    'nomeUnidadeOrgaoSubrogado',
    'possibilidadeAdesao',
  ]),
  termo: new Set([
    'numeroControlePNCP',
    'numeroControlePNCPContrato',
    'numeroControlePncpContrato',
    'sequencialTermoContrato',
    'numeroTermoContrato',
    'tipoTermoContratoId',
    'tipoTermoContratoNome',
    'objetoTermoContrato',
    'informativoObservacao',
    'informacaoComplementar',
    'fundamentoLegal',
    'qualificacaoAcrescimoSupressao',
    'qualificacaoVigencia',
    'qualificacaoFornecedor',
    'qualificacaoReajuste',
    'qualificacaoInformativo',
    'tipoPessoa',
    'niFornecedor',
    'nomeRazaoSocialFornecedor',
    'tipoPessoaFornecedorSubContratado',
    'niFornecedorSubContratado',
    'nomeRazaoSocialFornecedorSubContratado',
    'valorAcrescido',
    'valorGlobal',
    'valorParcela',
    'numeroParcelas',
    'prazoAditadoDias',
    'dataAssinatura',
    'dataVigenciaInicio',
    'dataVigenciaFim',
    'dataPublicacaoPncp',
    'dataInclusao',
    'dataAtualizacao',
    'orgaoEntidade',
    'unidadeOrgao',
    'orgaoSubRogado',
    'unidadeSubRogada',
    'usuarioNome',
    'anoContrato',
    'sequencialContrato',
  ]),
  item: new Set([
    'numeroControlePNCP',
    'numeroControlePNCPCompra',
    'numeroControlePncpCompra',
    'numeroItem',
    'descricao',
    'materialOuServico',
    'materialOuServicoNome',
    'valorUnitarioEstimado',
    'valorTotal',
    'quantidade',
    'unidadeMedida',
    'orcamentoSigiloso',
    'itemCategoriaId',
    'itemCategoriaNome',
    'patrimonio',
    'codigoRegistroImobiliario',
    'criterioJulgamentoId',
    'criterioJulgamentoNome',
    'situacaoCompraItem',
    'situacaoCompraItemNome',
    'tipoBeneficio',
    'tipoBeneficioNome',
    'incentivoProdutivoBasico',
    'dataInclusao',
    'dataAtualizacao',
    'temResultado',
    'imagem',
    'aplicabilidadeMargemPreferenciaNormal',
    'aplicabilidadeMargemPreferenciaAdicional',
    'percentualMargemPreferenciaNormal',
    'percentualMargemPreferenciaAdicional',
    'ncmNbsCodigo',
    'ncmNbsDescricao',
    'catalogo',
    'categoriaItemCatalogo',
    'catalogoCodigoItem',
    'informacaoComplementar',
  ]),
  resultado: new Set([
    'numeroControlePNCP',
    'numeroControlePNCPCompra',
    'numeroControlePncpCompra',
    'numeroItem',
    'sequencialResultado',
    'niFornecedor',
    'tipoPessoa',
    'nomeRazaoSocialFornecedor',
    'codigoPais',
    'porteFornecedorId',
    'porteFornecedorNome',
    'quantidadeHomologada',
    'valorUnitarioHomologado',
    'valorTotalHomologado',
    'percentualDesconto',
    'situacaoCompraItemResultadoId',
    'situacaoCompraItemResultadoNome',
    'motivoCancelamento',
    'dataCancelamento',
    'dataResultado',
    'dataInclusao',
    'dataAtualizacao',
    'ordemClassificacaoSrp',
    'indicadorSubcontratacao',
    'aplicacaoMargemPreferencia',
    'aplicacaoBeneficioMeEpp',
    'aplicacaoCriterioDesempate',
    'amparoLegalMargemPreferencia',
    'amparoLegalCriterioDesempate',
    'moedaEstrangeira',
    'valorNominalMoedaEstrangeira',
    'dataCotacaoMoedaEstrangeira',
    'timezoneCotacaoMoedaEstrangeira',
  ]),
  contratacao: new Set([
    'numeroControlePNCP',
    'numeroCompra',
    'anoCompra',
    'sequencialCompra',
    'processo',
    'objetoCompra',
    'informacaoComplementar',
    'modalidadeId',
    'modalidadeNome',
    'modoDisputaId',
    'modoDisputaNome',
    'situacaoCompraId',
    'situacaoCompraNome',
    'tipoInstrumentoConvocatorioCodigo',
    'tipoInstrumentoConvocatorioNome',
    'amparoLegal',
    'valorTotalEstimado',
    'valorTotalHomologado',
    'dataAberturaProposta',
    'dataEncerramentoProposta',
    'dataPublicacaoPncp',
    'dataInclusao',
    'dataAtualizacao',
    'dataAtualizacaoGlobal',
    'srp',
    'orgaoEntidade',
    'unidadeOrgao',
    'orgaoSubRogado',
    'unidadeSubRogada',
    'usuarioNome',
    'linkSistemaOrigem',
    'linkProcessoEletronico',
    'justificativaPresencial',
    'fontesOrcamentarias',
    'indicadorOrcamentoSigiloso',
    'orcamentoSigilosoCodigo',
    'orcamentoSigilosoDescricao',
  ]),
  contrato: new Set([
    'numeroControlePNCP',
    'numeroControlePncpAta',
    'numeroControlePNCPAta',
    'numeroControlePncpCompra',
    'numeroControlePNCPCompra',
    'numeroContratoEmpenho',
    'anoContrato',
    'sequencialContrato',
    'processo',
    'tipoContrato',
    'categoriaProcesso',
    'receita',
    'objetoContrato',
    'informacaoComplementar',
    'orgaoEntidade',
    'unidadeOrgao',
    'orgaoSubRogado',
    'unidadeSubRogada',
    'tipoPessoa',
    'niFornecedor',
    'nomeRazaoSocialFornecedor',
    'tipoPessoaSubContratada',
    'niFornecedorSubContratado',
    'nomeFornecedorSubContratado',
    'valorInicial',
    'numeroParcelas',
    'valorParcela',
    'valorGlobal',
    'valorAcumulado',
    'dataAssinatura',
    'dataVigenciaInicio',
    'dataVigenciaFim',
    'numeroRetificacao',
    'dataPublicacaoPncp',
    'dataAtualizacao',
    'dataAtualizacaoGlobal',
    'identificadorCipi',
    'urlCipi',
    'usuarioNome',
  ]),
}

/** PNCP's modalities (its domain table "Modalidade de Contratação") as the platform names them. */
const MODALITIES: Readonly<Record<number, BiddingModality>> = {
  1: 'Leilão Eletrônico',
  2: 'Diálogo Competitivo',
  3: 'Concurso',
  4: 'Concorrência - Eletrônica',
  5: 'Concorrência - Presencial',
  6: 'Pregão Eletrônico',
  7: 'Pregão Presencial',
  // 8, Dispensa de Licitação: by its dispute mode (4, Dispensa com Disputa, is the electronic one).
  9: 'Inexigibilidade',
  10: 'Manifestação de Interesse',
  11: 'Pré-Qualificação',
  12: 'Credenciamento',
  13: 'Leilão Presencial',
}

/** modalidadeId 8 and 9 are direct contracts; every other modality is a public call. */
const DIRECT = new Set([8, 9])

/** PNCP's "Situação da Contratação" as the platform's status; 1 with a homologated total is Homologado. */
const STATUSES: Readonly<Record<number, BiddingStatus>> = {
  1: 'Publicado',
  2: 'Revogado',
  3: 'Anulado',
  4: 'Suspenso',
}

/** A field's problem, named by PNCP's field (`orgaoEntidade.cnpj`). */
export interface FieldProblem {
  field: string
  reason: string
}

/** What the import knows of a contratação a contract names: from the same run, or stored. */
export interface Contratacao {
  organization: string
  id: string
  modality: BiddingModality
  number: string
}

/** A mapped record: its import lines (its organization first), or its problems; and the fields it did not read. */
export interface Mapped {
  lines: ImportLine[]
  problems: FieldProblem[]
  unknown: string[]
}

const CONTROL = /^(\d{14})-(\d)-(\d{6})\/(\d{4})$/
/** An ata's numeroControlePNCPAta: its contratação's control number and the ata's sequence in it. */
const ATA_CONTROL = /^((\d{14})-1-(\d{6})\/(\d{4}))-(\d{6})$/

/**
 * An ata's number in compras: its contratação's sequence and year and its own sequence (`168/2026-1`), unique
 * in its organization as an ARP's number must be. The organ's own numeroAtaRegistroPreco repeats across its
 * units and years. A contrato names its ata by numeroControlePncpAta and gets the same number.
 */
export function ataNumber(control: string): string | undefined {
  const m = ATA_CONTROL.exec(control.trim())
  return m ? `${Number(m[3])}/${m[4]}-${Number(m[5])}` : undefined
}

/** The contratação an ata belongs to: its numeroControlePNCPCompra, else the start of its own control number. */
export function compraOfAta(raw: Record<string, unknown>): string | undefined {
  const named = raw.numeroControlePNCPCompra
  if (typeof named === 'string' && named.trim() !== '') return named.trim()
  const control = typeof raw.numeroControlePNCPAta === 'string' ? raw.numeroControlePNCPAta.trim() : ''
  return ATA_CONTROL.exec(control)?.[1]
}

/** Reads a record's fields, collecting a problem for each that is missing or malformed. */
class Reader {
  readonly problems: FieldProblem[] = []
  constructor(private readonly raw: Record<string, unknown>) {}

  private get(path: string): unknown {
    let value: unknown = this.raw
    for (const part of path.split('.')) {
      if (value === null || typeof value !== 'object') return undefined
      value = (value as Record<string, unknown>)[part]
    }
    return value
  }

  private fail(field: string, reason: string): undefined {
    this.problems.push({ field, reason })
    return undefined
  }

  text(path: string, max = 10_000): string | undefined {
    const value = this.get(path)
    if (typeof value !== 'string' || value.trim() === '') return this.fail(path, 'is missing or empty')
    const text = value.trim()
    if (text.length > max) return this.fail(path, `is longer than ${max} characters`)
    return text
  }

  optionalText(path: string, max = 300): string | null {
    const value = this.get(path)
    if (value === undefined || value === null) return null
    if (typeof value !== 'string') return this.fail(path, 'is not a text') ?? null
    const text = value.trim()
    if (text === '') return null
    return text.length > max ? text.slice(0, max) : text
  }

  /** A code PNCP serves as a number or as text (unit codes, IBGE codes). */
  optionalCode(path: string): string | null {
    const value = this.get(path)
    if (typeof value === 'number' && Number.isFinite(value)) return String(value)
    return this.optionalText(path, 100)
  }

  integer(path: string): number | undefined {
    const value = this.get(path)
    const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) return this.fail(path, 'is not an integer')
    return n
  }

  /** Money as the import's decimal text, at most two decimals; never negative. */
  money(path: string, nullable: true): string | null
  money(path: string, nullable?: false): string | undefined
  money(path: string, nullable = false): string | null | undefined {
    const n = nullable ? this.decimal(path, true) : this.decimal(path)
    return n === null || n === undefined ? n : n.toFixed(2)
  }

  /** A quantity or a price as an exact number, decimals kept; never negative. */
  decimal(path: string, nullable: true): number | null
  decimal(path: string, nullable?: false): number | undefined
  decimal(path: string, nullable = false): number | null | undefined {
    const value = this.get(path)
    if ((value === undefined || value === null) && nullable) return null
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
    if (typeof n !== 'number' || !Number.isFinite(n)) return this.fail(path, 'is not a number')
    if (n < 0) return this.fail(path, 'is negative')
    if (n >= 1e15) return this.fail(path, 'is larger than 10^15')
    return n
  }

  /** An address on the web, or null when there is none (or it is not one). */
  optionalUrl(path: string): string | null {
    const text = this.optionalText(path, 2000)
    return text !== null && /^https?:\/\/\S+$/.test(text) ? text : null
  }

  boolean(path: string): boolean | undefined {
    const value = this.get(path)
    if (value === undefined || value === null) return false
    if (typeof value !== 'boolean') return this.fail(path, 'is not true or false')
    return value
  }

  /** A day, from PNCP's `YYYY-MM-DD` or a timestamp's date. */
  date(path: string, nullable: true): string | null
  date(path: string, nullable?: false): string | undefined
  date(path: string, nullable = false): string | null | undefined {
    const value = this.get(path)
    if ((value === undefined || value === null || value === '') && nullable) return null
    const day = typeof value === 'string' ? value.slice(0, 10) : ''
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !isCalendarDay(day))
      return this.fail(path, 'is not a date (YYYY-MM-DD)')
    return day
  }

  /**
   * An instant. PNCP writes Brasília's local time without an offset (`2025-03-10T09:00:00`); Brasília has
   * kept UTC-3 all year since 2019, so it is read as -03:00. A time with an offset or Z is kept as it is.
   */
  instant(path: string, nullable: true): string | null
  instant(path: string, nullable?: false): string | undefined
  instant(path: string, nullable = false): string | null | undefined {
    const value = this.get(path)
    if ((value === undefined || value === null || value === '') && nullable) return null
    const text = typeof value === 'string' ? value.trim() : ''
    const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?))?(Z|[+-]\d{2}:\d{2})?$/.exec(
      text,
    )
    if (!m || !isCalendarDay(m[1] as string)) return this.fail(path, 'is not a date and time')
    const time = m[2] ?? '00:00:00'
    return `${m[1]}T${time.length === 5 ? `${time}:00` : time}${m[3] ?? '-03:00'}`
  }

  /** A CNPJ's or CPF's digits, its punctuation removed ('' when it is not a text). */
  private digits(path: string): string {
    const value = this.get(path)
    return typeof value === 'string' ? value.replace(/[.\-/\s]/g, '') : ''
  }

  cnpj(path: string): string | undefined {
    const digits = this.digits(path)
    if (!/^\d{14}$/.test(digits)) return this.fail(path, 'is not a CNPJ of 14 digits')
    return digits
  }

  /** A supplier's CNPJ (14 digits) or a person's CPF (11). */
  taxId(path: string): string | undefined {
    const digits = this.digits(path)
    if (!/^(\d{11}|\d{14})$/.test(digits))
      return this.fail(
        path,
        'is not a CNPJ (14 digits) or CPF (11 digits): a foreign supplier is not imported',
      )
    return digits
  }

  /** A numeroControlePNCP, with its parts. */
  control(path: string): { id: string; cnpj: string; sequence: string; year: string } | undefined {
    const value = this.get(path)
    const text = typeof value === 'string' ? value.trim() : ''
    const m = CONTROL.exec(text)
    if (!m) return this.fail(path, 'is not a PNCP control number (CNPJ-T-SEQUENCE/YEAR)')
    return { id: text, cnpj: m[1] as string, sequence: m[3] as string, year: m[4] as string }
  }

  optionalControl(...paths: string[]): string | null {
    for (const path of paths) {
      const value = this.get(path)
      if (value === undefined || value === null || value === '') continue
      return this.control(path)?.id ?? null
    }
    return null
  }
}

function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day
}

const unknownFields = (raw: Record<string, unknown>, kind: keyof typeof KNOWN) =>
  Object.keys(raw).filter((name) => !KNOWN[kind].has(name))

/** The unit and the PNCP fields every mapped record carries. */
function pncpOf(read: Reader, pncpId: string, url: string) {
  return {
    pncp_id: pncpId,
    pncp_url: url,
    pncp_updated_at:
      read.instant('dataAtualizacaoGlobal', true) ??
      read.instant('dataAtualizacao', true) ??
      read.instant('dataPublicacaoPncp', true),
    unit_code: read.optionalCode('unidadeOrgao.codigoUnidade'),
    unit_name: read.optionalText('unidadeOrgao.nomeUnidade'),
    unit_city: read.optionalText('unidadeOrgao.municipioNome', 200),
    unit_ibge_code: read.optionalCode('unidadeOrgao.codigoIbge'),
    unit_uf: read.optionalText('unidadeOrgao.ufSigla', 2),
  }
}

function organizationOf(read: Reader): OrganizationRecord | undefined {
  const cnpj = read.cnpj('orgaoEntidade.cnpj')
  const name = read.text('orgaoEntidade.razaoSocial', 300)
  if (cnpj === undefined || name === undefined) return undefined
  return { type: 'organization', uuid: organizationId(cnpj), name, document: cnpj }
}

/** A bidding's number: numeroCompra, with its year when it does not carry one. */
const biddingNumber = (number: string, year: number | undefined) =>
  number.includes('/') || year === undefined ? number : `${number}/${year}`

export type ItemRecord = ImportRecord<typeof TenderItem.fields>
export type ResultRecord = ImportRecord<typeof TenderResult.fields>

/** A contratação's items and results, as the import gathered them from their files. */
export interface Children {
  items: ItemRecord[]
  results: ResultRecord[]
}

/**
 * Where the harvester keeps a contratação's items and results and a contrato's termos:
 * `.../{cnpj}-{ano}-{sequencial}/{its last change}/FILE.json` (the last directory may be left out).
 */
const CHILD_PATH = /(\d{14})-(\d{4})-(\d{1,6})[\\/](?:\d+[\\/])?[^\\/]+$/

/**
 * The record an item or result (a contratação) or a termo (a contrato) belongs to: named on the record, else by
 * the harvester's path.
 */
export function parentOf(
  raw: Record<string, unknown>,
  path: string,
  kind: PncpKind = 'item',
): string | undefined {
  const termo = kind === 'termo'
  const names = termo
    ? ['numeroControlePNCPContrato', 'numeroControlePncpContrato']
    : ['numeroControlePNCPCompra', 'numeroControlePncpCompra', 'numeroControlePNCP']
  for (const name of names) {
    const value = raw[name]
    if (typeof value === 'string' && CONTROL.test(value.trim())) return value.trim()
  }
  const m = CHILD_PATH.exec(path)
  if (!m) return undefined
  // PNCP's control numbers: type 1 a contratação, 2 a contrato.
  return `${m[1]}-${termo ? 2 : 1}-${(m[3] as string).padStart(6, '0')}/${m[2]}`
}

export type TermRecord = ContractRecord['terms'][number]

/**
 * A termo of a contrato (`.../contratos/{ano}/{sequencial}/termos`): an additive term. Its value is what it adds
 * (`valorAcrescido`); a suppression (a negative one) is kept without a value.
 */
export function mapTermo(raw: Record<string, unknown>): Mapped & { term?: TermRecord } {
  const read = new Reader(raw)
  const number =
    read.optionalText('numeroTermoContrato', 100) ??
    (typeof raw.sequencialTermoContrato === 'number' ? String(raw.sequencialTermoContrato) : null)
  if (number === null)
    read.problems.push({
      field: 'numeroTermoContrato',
      reason: 'is missing, and so is sequencialTermoContrato',
    })
  const kind = read.optionalText('tipoTermoContratoNome', 200) ?? 'Termo aditivo'
  const description =
    read.optionalText('objetoTermoContrato', 10_000) ??
    read.optionalText('informativoObservacao', 10_000) ??
    kind
  const signature = read.date('dataAssinatura')
  const start = read.date('dataVigenciaInicio', true)
  const end = read.date('dataVigenciaFim', true)
  const added =
    typeof raw.valorAcrescido === 'number' && raw.valorAcrescido < 0
      ? null
      : read.money('valorAcrescido', true)
  const unknown = unknownFields(raw, 'termo')
  if (read.problems.length > 0) return { lines: [], problems: read.problems, unknown }
  return {
    lines: [],
    problems: [],
    unknown,
    term: {
      number: number as string,
      kind,
      description,
      signature_date: signature as string,
      date_start: start,
      date_end: end,
      value: added,
      documents: [],
    },
  }
}

/** An item of a contratação (`.../compras/{ano}/{sequencial}/itens`); `secret` when its budget is. */
export function mapItem(raw: Record<string, unknown>, secret: boolean): Mapped & { item?: ItemRecord } {
  const read = new Reader(raw)
  const number = read.integer('numeroItem')
  if (number !== undefined && number < 1)
    read.problems.push({ field: 'numeroItem', reason: 'is not positive' })
  const description = read.text('descricao')
  const unit = read.text('unidadeMedida', 100)
  const quantity = read.decimal('quantidade')
  const estimated = read.decimal('valorUnitarioEstimado', true)
  const total = read.money('valorTotal', true)
  const unknown = unknownFields(raw, 'item')
  if (read.problems.length > 0) return { lines: [], problems: read.problems, unknown }
  return {
    lines: [],
    problems: [],
    unknown,
    item: {
      number_item: number as number,
      description: description as string,
      unit_measurement: unit as string,
      quantity: quantity as number,
      estimated_amount: secret || raw.orcamentoSigiloso === true ? null : estimated,
      estimated_total: secret || raw.orcamentoSigiloso === true ? null : total,
    },
  }
}

/** PNCP's "Situação do Resultado do Item" 2: a cancelled result, which is no price. */
const CANCELLED_RESULT = 2

/**
 * A result of an item (`.../itens/{numeroItem}/resultados`): its supplier, quantity and unit price
 * homologated. A cancelled one gives neither result nor problem.
 */
export function mapResult(
  raw: Record<string, unknown>,
): Mapped & { result?: ResultRecord; cancelled?: true } {
  const read = new Reader(raw)
  const number = read.integer('numeroItem')
  if (number !== undefined && number < 1)
    read.problems.push({ field: 'numeroItem', reason: 'is not positive' })
  const supplier = read.taxId('niFornecedor')
  const name = read.text('nomeRazaoSocialFornecedor', 300)
  const quantity = read.decimal('quantidadeHomologada')
  const price = read.decimal('valorUnitarioHomologado')
  const total = read.money('valorTotalHomologado', true)
  const discount = read.decimal('percentualDesconto', true)
  const date = read.date('dataResultado', true)
  const unknown = unknownFields(raw, 'resultado')
  if (raw.situacaoCompraItemResultadoId === CANCELLED_RESULT)
    return { lines: [], problems: [], unknown, cancelled: true }
  if (read.problems.length > 0) return { lines: [], problems: read.problems, unknown }
  return {
    lines: [],
    problems: [],
    unknown,
    result: {
      number_item: number as number,
      name: name as string,
      document: supplier as string,
      quantity: quantity as number,
      amount: price as number,
      amount_total: total ?? ((quantity as number) * (price as number)).toFixed(2),
      discount,
      result_date: date,
    },
  }
}

/** A secret budget (art. 24): PNCP says so, or, in older records, publishes no estimate. */
export function secretBudget(raw: Record<string, unknown>): boolean {
  const secrecy = raw.indicadorOrcamentoSigiloso
  if (typeof secrecy === 'string' && secrecy.trim() !== '')
    return secrecy.trim() === 'COMPRA_TOTALMENTE_SIGILOSA'
  return raw.valorTotalEstimado === undefined || raw.valorTotalEstimado === null
}

/** A contratação's providers: the suppliers of its results, each once, in the results' order. */
function providersOf(results: readonly ResultRecord[]): BiddingRecord['providers'] {
  const seen = new Map<string, BiddingRecord['providers'][number]>()
  for (const r of results)
    if (!seen.has(r.document))
      seen.set(r.document, { name: r.name, document: r.document, representative_name: null })
  return [...seen.values()]
}

/**
 * A contratação (`/v1/contratacoes/...`): a direct contract (modalities 8 and 9) or a public call, with the
 * items and results the import gathered for it.
 */
export function mapContratacao(
  raw: Record<string, unknown>,
  children?: Children,
): Mapped & { contratacao?: Contratacao } {
  const read = new Reader(raw)
  const control = read.control('numeroControlePNCP')
  const organization = organizationOf(read)
  const modalityId = read.integer('modalidadeId')
  let modality: BiddingModality | undefined
  if (modalityId === 8) {
    modality = raw.modoDisputaId === 4 ? 'Dispensa Eletrônica' : 'Dispensa sem Disputa'
  } else if (modalityId !== undefined) {
    modality = MODALITIES[modalityId]
    if (modality === undefined)
      read.problems.push({ field: 'modalidadeId', reason: `${modalityId} is not a modality compras knows` })
  }
  const statusId = read.integer('situacaoCompraId')
  let status = statusId === undefined ? undefined : STATUSES[statusId]
  if (statusId !== undefined && status === undefined)
    read.problems.push({ field: 'situacaoCompraId', reason: `${statusId} is not a situation compras knows` })
  const year = read.integer('anoCompra')
  const number = read.text('numeroCompra', 90)
  const object = read.text('objetoCompra')
  const estimated = read.money('valorTotalEstimado', true)
  const homologated = read.money('valorTotalHomologado', true)
  if (status === 'Publicado' && homologated !== null) status = 'Homologado'
  const opening = read.instant('dataAberturaProposta', true)
  const srp = read.boolean('srp')
  const pncp =
    control &&
    pncpOf(
      read,
      control.id,
      `${PNCP_PAGES}/editais/${control.cnpj}/${control.year}/${Number(control.sequence)}`,
    )
  const extra = {
    process: read.optionalText('processo', 100),
    legal_basis: read.optionalText('amparoLegal.nome', 500),
    closing_date: read.instant('dataEncerramentoProposta', true),
    additional_info: read.optionalText('informacaoComplementar', 10_000),
    origin_url: read.optionalUrl('linkSistemaOrigem'),
  }
  const unknown = unknownFields(raw, 'contratacao')
  if (read.problems.length > 0) return { lines: [], problems: read.problems, unknown }
  const org = organization as OrganizationRecord
  const id = recordId((control as { id: string }).id)
  const bidding: BiddingRecord = {
    type: DIRECT.has(modalityId as number) ? 'direct_contract' : 'public_call',
    organization_uuid: org.uuid,
    id,
    number: biddingNumber(number as string, year),
    modality: modality as BiddingModality,
    budget_secret: secretBudget(raw),
    status: status as BiddingStatus,
    register_price: srp as boolean,
    opening_date: opening,
    object_details: object as string,
    company_name: org.name,
    electronic_dispute_mode: read.optionalText('modoDisputaNome', 200),
    adjudication_mode: null,
    judgment_criteria: null,
    competent_authority: null,
    agent: null,
    type_range_bids: null,
    range_bids: null,
    sum_amount_total: estimated ?? '0.00',
    precision: 2,
    sum_amount_total_finish: homologated,
    ...(pncp as ReturnType<typeof pncpOf>),
    ...extra,
    documents: [],
    providers: providersOf(children?.results ?? []),
    ...(children && children.items.length > 0 ? { items: children.items } : {}),
    ...(children && children.results.length > 0 ? { results: children.results } : {}),
  }
  return {
    lines: [org, bidding],
    problems: [],
    unknown,
    contratacao: {
      organization: org.uuid,
      id,
      modality: modality as BiddingModality,
      number: bidding.number,
    },
  }
}

/** The number of the ata a contrato names (numeroControlePncpAta), when that ata is of the contrato's organ. */
function ataOf(raw: Record<string, unknown>, cnpj: string): string | null {
  const named = raw.numeroControlePncpAta ?? raw.numeroControlePNCPAta
  if (typeof named !== 'string' || !named.trim().startsWith(`${cnpj}-`)) return null
  return ataNumber(named) ?? null
}

/**
 * An ata de registro de preços (`/v1/atas...`): an ARP of its contratação, which must be in the same run or
 * stored (`find`) for its modality and number. PNCP's ata names neither a supplier nor a value: the ARP has
 * none. `cancelado` is the management status Cancelado; an ata past its vigência, as of PNCP's last change to
 * it, is Encerrado; any other, Vigente.
 */
export function mapAta(
  raw: Record<string, unknown>,
  find: (pncpId: string) => Contratacao | undefined,
): Mapped {
  const read = new Reader(raw)
  const control = typeof raw.numeroControlePNCPAta === 'string' ? raw.numeroControlePNCPAta.trim() : ''
  const parts = ATA_CONTROL.exec(control)
  if (!parts)
    read.problems.push({
      field: 'numeroControlePNCPAta',
      reason: 'is not the PNCP control number of an ata (CNPJ-1-SEQUENCE/YEAR-SEQUENCE)',
    })
  const cnpj = read.cnpj('cnpjOrgao')
  const name = read.text('nomeOrgao', 300)
  const object = read.text('objetoContratacao')
  const signature = read.date('dataAssinatura', true) ?? read.date('vigenciaInicio')
  const end = read.date('vigenciaFim')
  const cancelled = read.boolean('cancelado')
  // A malformed numeroControlePNCPCompra is its own problem; else the contratação is looked up as pass 1 does.
  const problems = read.problems.length
  read.optionalControl('numeroControlePNCPCompra')
  const compra = read.problems.length > problems ? null : (compraOfAta(raw) ?? null)
  const contratacao = compra === null ? undefined : find(compra)
  if (compra !== null && contratacao === undefined)
    read.problems.push({
      field: 'numeroControlePNCPCompra',
      reason: `names no contratação in this import or stored (${compra}): import it too`,
    })
  const pncp = parts && {
    ...pncpOf(
      read,
      control,
      `${PNCP_PAGES}/atas/${parts[2]}/${parts[4]}/${Number(parts[3])}/${Number(parts[5])}`,
    ),
    unit_code: read.optionalCode('codigoUnidadeOrgao'),
    unit_name: read.optionalText('nomeUnidadeOrgao'),
  }
  const unknown = unknownFields(raw, 'ata')
  if (read.problems.length > 0) return { lines: [], problems: read.problems, unknown }
  const org: OrganizationRecord = {
    type: 'organization',
    uuid: organizationId(cnpj as string),
    name: name as string,
    document: cnpj as string,
  }
  const found = contratacao as Contratacao
  const asOf = (pncp?.pncp_updated_at ?? '').slice(0, 10)
  const arp: ArpRecord = {
    type: 'arp',
    organization_uuid: org.uuid,
    id: recordId(control),
    // A contratação of another organ (a subrogated one) is not linked: links stay inside an organization.
    bidding_uuid: found.organization === org.uuid ? found.id : null,
    number: ataNumber(control) as string,
    object_details: object as string,
    amount_total: null,
    company_name: org.name,
    provider_company_name: null,
    provider_document: null,
    provider_representative_name: null,
    bidding_modality: found.modality,
    bidding_number: found.number,
    date_signature: signature as string,
    date_expiration: end as string,
    management_status: cancelled
      ? 'Cancelado'
      : asOf !== '' && (end as string) < asOf
        ? 'Encerrado'
        : 'Vigente',
    ...(pncp as NonNullable<typeof pncp>),
    documents: [],
    terms: [],
  }
  return { lines: [org, arp], problems: [], unknown }
}

/**
 * A contrato (`/v1/contratos...`). Its modality is its contratação's: the contratação must be in the same
 * run or stored (`find`); PNCP's contrato does not say it.
 */
export function mapContrato(
  raw: Record<string, unknown>,
  find: (pncpId: string) => Contratacao | undefined,
  terms: TermRecord[] = [],
): Mapped {
  const read = new Reader(raw)
  const control = read.control('numeroControlePNCP')
  const organization = organizationOf(read)
  const compra = read.optionalControl('numeroControlePncpCompra', 'numeroControlePNCPCompra')
  const number = read.text('numeroContratoEmpenho', 80)
  const object = read.text('objetoContrato')
  // valorGlobal, the whole term's value; some organs leave it 0 and give valorInicial only.
  const global = read.money('valorGlobal', true)
  const initial = read.money('valorInicial', true)
  const value = global !== null && global !== '0.00' ? global : (initial ?? global)
  if (value === null)
    read.problems.push({ field: 'valorGlobal', reason: 'is missing, and so is valorInicial' })
  const supplier = read.taxId('niFornecedor')
  const supplierName = read.text('nomeRazaoSocialFornecedor', 300)
  const start = read.date('dataVigenciaInicio')
  const end = read.date('dataVigenciaFim')
  const pncp =
    control &&
    pncpOf(
      read,
      control.id,
      `${PNCP_PAGES}/contratos/${control.cnpj}/${control.year}/${Number(control.sequence)}`,
    )
  const contratacao = compra === null ? undefined : find(compra)
  if (compra === null)
    read.problems.push({
      field: 'numeroControlePncpCompra',
      reason: 'is missing: compras takes a contract with the contratação that gives its modality',
    })
  else if (contratacao === undefined)
    read.problems.push({
      field: 'numeroControlePncpCompra',
      reason: `names no contratação in this import or stored (${compra}): import it too`,
    })
  const unknown = unknownFields(raw, 'contrato')
  if (read.problems.length > 0) return { lines: [], problems: read.problems, unknown }
  const org = organization as OrganizationRecord
  const found = contratacao as Contratacao
  const kind = read.optionalText('tipoContrato.nome', 100) ?? 'Contrato'
  // PNCP's contrato has no state of its own: in force until its end, as of PNCP's last change to it.
  const asOf = (pncp?.pncp_updated_at ?? '').slice(0, 10)
  const contract: ContractRecord = {
    type: 'contract',
    organization_uuid: org.uuid,
    id: recordId((control as { id: string }).id),
    // A contratação of another organ (a subrogated one) is not linked: links stay inside an organization.
    bidding_uuid: found.organization === org.uuid ? found.id : null,
    arp_number: ataOf(raw, org.document),
    // numeroContratoEmpenho repeats across an organ's units; PNCP's sequence and year never do.
    contract_number: `${Number((control as { sequence: string }).sequence)}/${(control as { year: string }).year}`,
    object_details: object as string,
    amount_total: value as string,
    provider_company_name: supplierName as string,
    provider_document: supplier as string,
    contractor_company_name: org.name,
    managers: [],
    inspectors: [],
    commitments: [],
    bidding_modality: found.modality,
    term_title: `${kind} nº ${number}`.slice(0, 300),
    bidding_number: found.number,
    date_start: start as string,
    date_end: end as string,
    management_status: asOf !== '' && (end as string) < asOf ? 'Encerrado' : 'Vigente',
    ...(pncp as ReturnType<typeof pncpOf>),
    documents: [],
    terms,
  }
  return { lines: [org, contract], problems: [], unknown }
}
