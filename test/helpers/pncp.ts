import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

// PNCP's records in its consultation API's exact field names and shapes (its manual, "Manual das APIs de
// Consultas PNCP", and the pages it serves), written for these tests: no real record is copied.

export const ORGAN = {
  cnpj: '46395000000139',
  razaoSocial: 'MUNICIPIO DE CAMPINAS',
  poderId: 'E',
  esferaId: 'M',
}
export const UNIT = {
  ufNome: 'São Paulo',
  codigoUnidade: '1',
  nomeUnidade: 'SECRETARIA MUNICIPAL DE SAUDE',
  ufSigla: 'SP',
  municipioNome: 'Campinas',
  codigoIbge: '3509502',
}

/** A contratação as /v1/contratacoes/publicacao serves it. */
export function contratacao(
  sequence: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const seq = String(sequence).padStart(6, '0')
  return {
    valorTotalEstimado: 125000.5,
    valorTotalHomologado: null,
    indicadorOrcamentoSigiloso: 'COMPRA_SEM_SIGILO',
    orcamentoSigilosoCodigo: 1,
    orcamentoSigilosoDescricao: 'Compra sem sigilo',
    numeroControlePNCP: `${ORGAN.cnpj}-1-${seq}/2025`,
    linkSistemaOrigem: 'https://compras.example/edital/1',
    linkProcessoEletronico: null,
    anoCompra: 2025,
    sequencialCompra: sequence,
    numeroCompra: `${90000 + sequence}`,
    processo: `${sequence}/2025`,
    orgaoEntidade: ORGAN,
    unidadeOrgao: UNIT,
    orgaoSubRogado: null,
    unidadeSubRogada: null,
    modalidadeId: 6,
    modalidadeNome: 'Pregão - Eletrônico',
    justificativaPresencial: null,
    modoDisputaId: 1,
    modoDisputaNome: 'Aberto',
    tipoInstrumentoConvocatorioCodigo: 1,
    tipoInstrumentoConvocatorioNome: 'Edital',
    amparoLegal: { descricao: 'Lei 14.133/2021, Art. 28, I', nome: 'Lei 14.133/2021, Art. 28, I', codigo: 1 },
    objetoCompra: `Aquisição de medicamentos da atenção básica, lote ${sequence}`,
    informacaoComplementar: '',
    srp: true,
    fontesOrcamentarias: [],
    dataPublicacaoPncp: '2025-03-03T10:15:02',
    dataAberturaProposta: '2025-03-04T08:00:00',
    dataEncerramentoProposta: '2025-03-18T09:00:00',
    situacaoCompraId: 1,
    situacaoCompraNome: 'Divulgada no PNCP',
    dataInclusao: '2025-03-03T10:15:02',
    dataAtualizacao: '2025-03-03T10:15:02',
    dataAtualizacaoGlobal: '2025-03-03T10:15:02',
    usuarioNome: 'Sistema de Compras Exemplo',
    ...overrides,
  }
}

/** A contrato as /v1/contratos serves it, of the contratação `sequence`. */
export function contrato(
  sequence: number,
  compra: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const seq = String(sequence).padStart(6, '0')
  return {
    numeroControlePncpCompra: `${ORGAN.cnpj}-1-${String(compra).padStart(6, '0')}/2025`,
    numeroControlePNCP: `${ORGAN.cnpj}-2-${seq}/2025`,
    anoContrato: 2025,
    sequencialContrato: sequence,
    numeroContratoEmpenho: `${sequence}/2025`,
    processo: `${compra}/2025`,
    tipoContrato: { id: 1, nome: 'Contrato (termo inicial)' },
    categoriaProcesso: { id: 2, nome: 'Compras' },
    receita: false,
    objetoContrato: `Fornecimento de medicamentos, ata ${sequence}`,
    informacaoComplementar: null,
    orgaoEntidade: ORGAN,
    unidadeOrgao: UNIT,
    orgaoSubRogado: null,
    unidadeSubRogada: null,
    tipoPessoa: 'PJ',
    niFornecedor: '11222333000181',
    nomeRazaoSocialFornecedor: 'DISTRIBUIDORA DE MEDICAMENTOS EXEMPLO LTDA',
    tipoPessoaSubContratada: null,
    niFornecedorSubContratado: null,
    nomeFornecedorSubContratado: null,
    valorInicial: 48000,
    numeroParcelas: 12,
    valorParcela: 4000,
    valorGlobal: 48000,
    valorAcumulado: 48000,
    dataAssinatura: '2025-04-01',
    dataVigenciaInicio: '2025-04-01',
    dataVigenciaFim: '2026-03-31',
    numeroRetificacao: 0,
    dataPublicacaoPncp: '2025-04-02T11:00:00',
    dataAtualizacao: '2025-04-02T11:00:00',
    dataAtualizacaoGlobal: '2025-04-02T11:00:00',
    identificadorCipi: null,
    urlCipi: null,
    usuarioNome: 'Sistema de Compras Exemplo',
    ...overrides,
  }
}

/** An ata as /v1/atas serves it: the `sequence`th of the contratação `compra`. */
export function ata(
  sequence: number,
  compra: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const compraId = `${ORGAN.cnpj}-1-${String(compra).padStart(6, '0')}/2025`
  return {
    numeroControlePNCPAta: `${compraId}-${String(sequence).padStart(6, '0')}`,
    numeroAtaRegistroPreco: `${sequence}/2025`,
    anoAta: 2025,
    numeroControlePNCPCompra: compraId,
    cancelado: false,
    dataCancelamento: null,
    dataAssinatura: '2025-04-01',
    vigenciaInicio: '2025-04-01',
    vigenciaFim: '2026-03-31',
    dataPublicacaoPncp: '2025-04-02T10:00:00',
    dataInclusao: '2025-04-02T10:00:00',
    dataAtualizacao: '2025-04-02T10:00:00',
    usuario: 'Sistema de Compras Exemplo',
    objetoContratacao: 'Registro de preços de medicamentos',
    cnpjOrgao: ORGAN.cnpj,
    nomeOrgao: ORGAN.razaoSocial,
    codigoUnidadeOrgao: UNIT.codigoUnidade,
    nomeUnidadeOrgao: UNIT.nomeUnidade,
    ...overrides,
  }
}

/** A page of the consultation API, as it wraps every list. */
export function page(data: unknown[], number = 1, pages = 1): Record<string, unknown> {
  return {
    data,
    totalRegistros: data.length,
    totalPaginas: pages,
    numeroPagina: number,
    paginasRestantes: pages - number,
    empty: data.length === 0,
  }
}

/** An item as PNCP's API serves `/v1/orgaos/{cnpj}/compras/{ano}/{sequencial}/itens` (a bare list of these). */
export function item(number: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    numeroItem: number,
    descricao: `Dipirona sódica 500 mg, comprimido, item ${number}`,
    materialOuServico: 'M',
    materialOuServicoNome: 'Material',
    valorUnitarioEstimado: 0.35,
    valorTotal: 3500,
    quantidade: 10000,
    unidadeMedida: 'Unidade',
    orcamentoSigiloso: false,
    itemCategoriaId: 3,
    itemCategoriaNome: 'Não se aplica',
    criterioJulgamentoId: 1,
    criterioJulgamentoNome: 'Menor preço',
    situacaoCompraItem: 2,
    situacaoCompraItemNome: 'Homologado',
    tipoBeneficio: 1,
    tipoBeneficioNome: 'Participação exclusiva para ME/EPP',
    incentivoProdutivoBasico: false,
    dataInclusao: '2025-03-03T10:15:02',
    dataAtualizacao: '2025-03-20T16:00:00',
    temResultado: true,
    imagem: 0,
    ...overrides,
  }
}

/** A result as PNCP's API serves `.../itens/{numeroItem}/resultados` (a bare list of these). */
export function resultado(number: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    numeroItem: number,
    sequencialResultado: 1,
    niFornecedor: '11222333000181',
    tipoPessoa: 'PJ',
    nomeRazaoSocialFornecedor: 'DISTRIBUIDORA DE MEDICAMENTOS EXEMPLO LTDA',
    codigoPais: null,
    porteFornecedorId: 1,
    porteFornecedorNome: 'ME',
    quantidadeHomologada: 10000,
    valorUnitarioHomologado: 0.2875,
    valorTotalHomologado: 2875,
    percentualDesconto: 17.86,
    situacaoCompraItemResultadoId: 1,
    situacaoCompraItemResultadoNome: 'Informado',
    dataResultado: '2025-03-20',
    dataInclusao: '2025-03-20T16:00:00',
    dataAtualizacao: '2025-03-20T16:00:00',
    ordemClassificacaoSrp: 1,
    indicadorSubcontratacao: false,
    aplicacaoMargemPreferencia: false,
    aplicacaoBeneficioMeEpp: true,
    aplicacaoCriterioDesempate: false,
    ...overrides,
  }
}

/** A termo as PNCP's API serves `/v1/orgaos/{cnpj}/contratos/{ano}/{sequencial}/termos` (a bare list of these). */
export function termo(sequence: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const month = String(5 + sequence).padStart(2, '0')
  return {
    sequencialTermoContrato: sequence,
    numeroTermoContrato: `${sequence}º Termo Aditivo`,
    tipoTermoContratoId: 2,
    tipoTermoContratoNome: 'Termo Aditivo',
    objetoTermoContrato: 'Acréscimo de quantitativos do item 1, art. 125 da Lei 14.133/2021',
    qualificacaoAcrescimoSupressao: true,
    qualificacaoVigencia: false,
    qualificacaoFornecedor: false,
    qualificacaoReajuste: false,
    qualificacaoInformativo: false,
    tipoPessoa: 'PJ',
    niFornecedor: '11222333000181',
    nomeRazaoSocialFornecedor: 'DISTRIBUIDORA DE MEDICAMENTOS EXEMPLO LTDA',
    fundamentoLegal: 'Art. 125 da Lei 14.133/2021',
    valorAcrescido: 12000,
    valorGlobal: 60000,
    numeroParcelas: 12,
    valorParcela: 5000,
    prazoAditadoDias: 0,
    dataAssinatura: `2025-${month}-01`,
    dataVigenciaInicio: `2025-${month}-01`,
    dataVigenciaFim: '2026-03-31',
    dataPublicacaoPncp: `2025-${month}-02T10:00:00`,
    dataAtualizacao: `2025-${month}-02T10:00:00`,
    ...overrides,
  }
}

/** Writes `value` (JSON, or text as it is) to `name` under `dir`, making its directories; gives its path. */
export async function writePncpFile(dir: string, name: string, value: unknown): Promise<string> {
  const at = path.join(dir, name)
  await mkdir(path.dirname(at), { recursive: true })
  await writeFile(at, typeof value === 'string' ? value : JSON.stringify(value))
  return at
}

/** A record of a --rejects file, read as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: the records as PNCP gave them, checked field by field
export type Rejected = Record<string, any>

/** A --rejects file as the import wrote it: where each refused record was, and its first problem's field. */
export async function rejected(file: string): Promise<{ refused: Rejected[]; where: unknown[][] }> {
  const refused = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Rejected)
  return { refused, where: refused.map((r) => [path.basename(r.file), r.record, r.problems[0].field]) }
}
