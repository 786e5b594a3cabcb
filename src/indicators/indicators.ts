import { BIDDING_MODALITIES, BIDDING_STATUSES } from '../domain.js'
import { day, money as reais } from '../format.js'
import { commitments } from '../parties/parties.js'
import { money } from '../resources/sql.js'
import { LAW_IN_FORCE, limitsSql } from './limits.js'

// The integrity indicators (red flags), each declared once: its code (the Open Contracting Partnership's where
// one exists, else BR- and a name), its title and legal basis in Portuguese, the SQL that finds its flags, and
// the one sentence that gives a flag's reason from its figures. docs/indicators.md gives each rule, its basis
// and its known false positives. A flag is a reason to open the record, never a verdict.

/** The rules' version: a change of any rule bumps it, and `compras migrate` (or serve) computes every flag again. */
export const INDICATORS_VERSION = 'indicators-1'

/** A flag's figures, as its rule found them: money as text with two decimals, shares and counts as numbers. */
export type FlagFigures = Readonly<Record<string, string | number>>

export interface Indicator {
  readonly code: string
  /** What it flags, in a few words. */
  readonly title: string
  /** The article of Lei 14.133/2021 (or the practice) it stands on. */
  readonly basis: string
  /** What it looks for, in plain Portuguese, for its page on the portal. */
  readonly meaning: string
  /** What a flag does not say: where it is wrong and why a record may be right. */
  readonly caveat: string
  /**
   * Where its flags are computed: for the organizations an import touched (`organization`: the statement's
   * organizations are `orgs`, a SQL set of ids), or across all organizations at once (`all`: a comparison
   * between organizations, over integrity_organization_years).
   */
  readonly scope: 'organization' | 'all'
  /**
   * The flags, as rows of (key, code, organization_id, year, supplier_ids, records, figures). `commitments` is the
   * relation of those organizations' commitments (COMMITMENTS_SQL, made once per import for every rule).
   */
  readonly sql: (orgs: string, commitments: string) => string
  /** The reason of a flag, in one Portuguese sentence, from its figures. */
  readonly reason: (figures: FlagFigures) => string
  /**
   * Where Cardinal's output (open-contracting/cardinal-rs) puts a flag: under its process (OCID), its organ
   * (Buyer) or its suppliers (Tenderer), and the decimal it gives there.
   */
  readonly cardinal: {
    readonly groups: readonly CardinalGroup[]
    readonly value: (figures: FlagFigures) => number
  }
}

/** Cardinal's groups that flags take. */
export type CardinalGroup = 'OCID' | 'Buyer' | 'Tenderer'

const ratio = (a: string | number | undefined, b: string | number | undefined) => Number(a) / Number(b)

/** The ids of names of a closed list (id = index + 1, src/domain.ts), for an IN (...). */
const idsOf = <N extends string>(list: readonly N[], ...names: N[]) =>
  names.map((name) => list.indexOf(name) + 1).join(', ')
const modalityIds = (...names: (typeof BIDDING_MODALITIES)[number][]) => idsOf(BIDDING_MODALITIES, ...names)
const statusIds = (...names: (typeof BIDDING_STATUSES)[number][]) => idsOf(BIDDING_STATUSES, ...names)

/** The calendar year of an instant in Brasília, where the budget year is counted. */
const yearOf = (instant: string) => `extract(year FROM ${instant} AT TIME ZONE 'America/Sao_Paulo')::int`

/** A record a flag names, for its `records`. */
const record = (resource: string, id: string) => `jsonb_build_object('resource', '${resource}', 'id', ${id})`

const share = (sql: string) => `round((${sql})::numeric, 6)::float8`
/** A share of an amount of money, in cents rounded half up, as the rules compare money. */
const cents = (sql: string) => `round(${sql}, 2)`

/** A legal basis (PNCP's amparoLegal.nome, "Lei 14.133/2021, Art. 75, II") that is art. 75, I or II. */
const BY_VALUE = String.raw`art\.?\s*75\s*,\s*(inciso\s+)?(I|II)\M`
const WORKS = String.raw`art\.?\s*75\s*,\s*(inciso\s+)?I\M`

/**
 * Direct contracts by value under Lei 14.133: those whose legal basis is art. 75, I or II, or, without one, a
 * Dispensa; dated from the law on. Each with its year, value (its finished total when it has one), inciso, and
 * the limit in force that year (none past the last year the table knows: such a contract is not judged).
 */
const directByValue = (orgs: string) => `
  SELECT d.*, CASE d.inciso WHEN 'I' THEN l.works ELSE l.other END AS cap, l.act
  FROM (SELECT b.id, b.organization_id, ${yearOf('b.opening_date')} AS year, b.opening_date,
          coalesce(b.sum_amount_total_finish, b.sum_amount_total) AS value,
          CASE WHEN b.legal_basis ~* '${WORKS}' THEN 'I' ELSE 'II' END AS inciso
        FROM biddings b
        WHERE b.kind = 'direct_contract' AND b.organization_id IN (${orgs})
          AND b.opening_date >= '${LAW_IN_FORCE} 00:00-03'
          AND CASE WHEN b.legal_basis IS NULL THEN b.modality_id IN (${modalityIds('Dispensa sem Disputa', 'Dispensa Eletrônica')})
                   ELSE b.legal_basis ~* '${BY_VALUE}' END) d
  JOIN ${limitsSql('l')} ON l.year = d.year`

/** The suppliers of a bidding, as an array of ids. */
const providersOf = (bidding: string) =>
  `ARRAY(SELECT DISTINCT p.supplier_id FROM bidding_providers p WHERE p.bidding_id = ${bidding} ORDER BY 1)`

/** A share as a percentage with one decimal (98,8%), or as many more as tell it from `apart` when they differ. */
function percent(value: string | number, apart?: string | number): string {
  const format = (n: number, digits: number) =>
    `${(n * 100).toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits })}%`
  let digits = 1
  while (
    apart !== undefined &&
    Number(apart) !== Number(value) &&
    digits < 6 &&
    format(Number(value), digits) === format(Number(apart), digits)
  )
    digits++
  return format(Number(value), digits)
}

/** Within this share below the limit, a direct contract by value is flagged (OCP R055's 10%). */
const NEAR_LIMIT = 0.9
/** Art. 125: additions up to 25% of the initial value; 50% to reform a building or equipment. */
const ADDITIONS = 0.25
const REFORM_ADDITIONS = 0.5
/** An organization's year with fewer commitments than this is too small to say it leans on anyone. */
const MIN_COMMITMENTS = 5
/** Fences between organizations need this many of them in the year. */
const MIN_ORGANIZATIONS = 10

/**
 * The minimum proposal period of art. 55 where the criterion is known to be technique (IV: 35 working days),
 * else the least the article allows (I, a: 8 working days for goods at the lowest price or greatest discount).
 */
const MIN_DAYS_TECHNIQUE = 35
const MIN_DAYS = 8

/** The modalities whose calls compete (a sale, a call for registration or an adhesion do not). */
const COMPETITIVE = modalityIds(
  'Pregão Eletrônico',
  'Pregão Presencial',
  'Tomada de Preço',
  'Concorrência - Presencial',
  'Concorrência - Eletrônica',
  'Carta Convite',
  'Regime Diferenciado de Contratação',
  'Diálogo Competitivo',
  'Procedimento da Lei 13.393/2016',
)

/** Where art. 55's periods bind: the bidding modalities of Lei 14.133 that publish a call for proposals. */
const WITH_PROPOSAL_PERIOD = modalityIds(
  'Pregão Eletrônico',
  'Pregão Presencial',
  'Concorrência - Presencial',
  'Concorrência - Eletrônica',
)

/** Commitments of the organizations in `orgs` (each real once), with their year: those with a date. */
export const COMMITMENTS_SQL = (orgs: string) => `
  SELECT k.organization_id, k.supplier_id, k.value, k.modality_id, extract(year FROM k.day)::int AS year
  FROM (${commitments((supplier) => `${supplier} IS NOT NULL AND x.organization_id IN (${orgs})`, true, orgs)}) k
  WHERE k.day IS NOT NULL`

/** A high outlier among organizations in a year: above Q3 + 1.5 × IQR of the column, as the price research fences. */
const fenced = (code: string, column: string, figure: string) => `
  SELECT '${code}:' || y.organization_id || ':' || y.year AS key, '${code}' AS code, y.organization_id, y.year,
    '{}'::bigint[] AS supplier_ids, jsonb_build_array(${record('organizations', 'y.organization_id::text')}) AS records,
    jsonb_build_object('${figure}', ${share(`y.${column}`)}, 'fence', ${share('f.fence')}, 'median', ${share('f.median')},
      'q1', ${share('f.q1')}, 'q3', ${share('f.q3')}, 'organizations', f.organizations, 'committed', ${money('y.committed')})
      AS figures
  FROM integrity_organization_years y
  JOIN (SELECT q.*, q.q3 + 1.5 * (q.q3 - q.q1) AS fence
        FROM (SELECT year, count(*)::int AS organizations,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY ${column}) AS median,
                percentile_cont(0.25) WITHIN GROUP (ORDER BY ${column}) AS q1,
                percentile_cont(0.75) WITHIN GROUP (ORDER BY ${column}) AS q3
              FROM integrity_organization_years WHERE commitments >= ${MIN_COMMITMENTS} GROUP BY year) q) f
    ON f.year = y.year AND f.organizations >= ${MIN_ORGANIZATIONS}
  WHERE y.commitments >= ${MIN_COMMITMENTS} AND y.${column} > f.fence`

export const INDICATORS = [
  {
    code: 'BR-LIMITE-DISPENSA',
    title: 'Dispensa por valor próxima do limite',
    basis: 'Lei 14.133/2021, art. 75, I e II (limites atualizados por decreto, art. 182)',
    meaning:
      'A lei permite contratar sem licitação compras e serviços de valor baixo (art. 75, I e II), até ' +
      'um limite atualizado todo ano. Uma dispensa logo abaixo do limite pode indicar um valor ajustado' +
      ' para caber nele.',
    caveat:
      'Muitas compras pequenas custam de fato perto do limite. O sinal não considera o objeto; uma ' +
      'dispensa de obra sem o amparo legal publicado é comparada ao limite menor.',
    scope: 'organization',
    sql: (orgs) => `
      SELECT 'BR-LIMITE-DISPENSA:' || d.id AS key, 'BR-LIMITE-DISPENSA' AS code, d.organization_id, d.year,
        ${providersOf('d.id')} AS supplier_ids, jsonb_build_array(${record('direct-contracts', 'd.id::text')}) AS records,
        jsonb_build_object('value', ${money('d.value')}, 'limit', ${money('d.cap')}, 'share', ${share('d.value / d.cap')},
          'inciso', d.inciso, 'year', d.year, 'act', d.act) AS figures
      FROM (${directByValue(orgs)}) d
      WHERE d.value >= ${cents(`${NEAR_LIMIT} * d.cap`)} AND d.value <= d.cap`,
    cardinal: { groups: ['OCID'], value: (f) => Number(f.share) },
    reason: (f) =>
      `Dispensa de ${reais(f.value as string)}, ${percent(f.share as number)} do limite de ${reais(f.limit as string)} ` +
      `do art. 75, ${f.inciso} em ${f.year} (${f.act}).`,
  },
  {
    code: 'R011',
    title: 'Possível fracionamento de despesa',
    basis: 'Lei 14.133/2021, art. 75, § 1º (soma no exercício, por unidade e objeto)',
    meaning:
      'Dividir uma compra em partes menores para que cada uma caiba no limite da dispensa é proibido ' +
      '(art. 75, § 1º): a lei soma o que a unidade gasta no ano com objetos da mesma natureza. O sinal ' +
      'soma as dispensas por valor de um órgão ao mesmo fornecedor no ano.',
    caveat:
      'Compras diferentes a um mesmo fornecedor (os registros não dizem a natureza de cada objeto) e ' +
      'necessidades que surgiram ao longo do ano também somam. Um órgão com várias unidades gestoras é ' +
      'somado inteiro.',
    scope: 'organization',
    sql: (orgs) => `
      SELECT 'R011:' || d.organization_id || ':' || d.year || ':' || d.inciso || ':' || p.supplier_id AS key,
        'R011' AS code, d.organization_id, d.year, ARRAY[p.supplier_id] AS supplier_ids,
        jsonb_agg(${record('direct-contracts', 'd.id::text')} ORDER BY d.opening_date, d.id) AS records,
        jsonb_build_object('total', ${money('sum(d.value)')}, 'limit', ${money('min(d.cap)')}, 'count', count(*)::int,
          'largest', ${money('max(d.value)')}, 'inciso', d.inciso, 'year', d.year, 'act', min(d.act)) AS figures
      FROM (${directByValue(orgs)}) d
      CROSS JOIN LATERAL (SELECT DISTINCT bp.supplier_id FROM bidding_providers bp WHERE bp.bidding_id = d.id) p
      WHERE d.value <= d.cap
      GROUP BY d.organization_id, d.year, d.inciso, p.supplier_id
      HAVING count(*) >= 2 AND sum(d.value) > min(d.cap)`,
    cardinal: { groups: ['Buyer', 'Tenderer'], value: (f) => ratio(f.total, f.limit) },
    reason: (f) =>
      `${f.count} dispensas por valor ao mesmo fornecedor em ${f.year} somam ${reais(f.total as string)}, acima do ` +
      `limite de ${reais(f.limit as string)} do art. 75, ${f.inciso}, embora cada uma esteja abaixo dele (a maior: ` +
      `${reais(f.largest as string)}).`,
  },
  {
    code: 'BR-ADITIVO-25',
    title: 'Aditivos acima do limite legal',
    basis: 'Lei 14.133/2021, art. 125 (25% do valor inicial; 50% na reforma de edifício ou equipamento)',
    meaning:
      'Os acréscimos a um contrato por termo aditivo estão limitados a 25% do valor inicial, ou 50% na ' +
      'reforma de edifício ou equipamento (art. 125). O sinal soma o que os termos aditivos publicados ' +
      'acrescentam.',
    caveat:
      'Um valor de contrato publicado já com os acréscimos, ou um termo que informa o novo total em vez' +
      ' do acréscimo, confundem a conta. Supressões não são descontadas.',
    scope: 'organization',
    sql: (orgs) => `
      SELECT 'BR-ADITIVO-25:' || c.id AS key, 'BR-ADITIVO-25' AS code, c.organization_id,
        extract(year FROM c.date_start)::int AS year, ARRAY[c.supplier_id] AS supplier_ids,
        jsonb_build_array(${record('contracts', 'c.id::text')}) AS records,
        jsonb_build_object('initial', ${money('c.amount_total')}, 'added', ${money('t.added')},
          'share', ${share('t.added / c.amount_total')}, 'allowed', t.allowed, 'terms', t.terms) AS figures
      FROM contracts c
      CROSS JOIN LATERAL (SELECT sum(a.value) AS added, count(*)::int AS terms,
              CASE WHEN bool_or(a.description ~* 'reforma' OR a.kind ~* 'reforma') THEN ${REFORM_ADDITIONS}
                   ELSE ${ADDITIONS} END::float8 AS allowed
            FROM additive_terms a WHERE a.contract_id = c.id AND a.value > 0) t
      WHERE c.organization_id IN (${orgs}) AND c.amount_total > 0 AND t.terms > 0
        AND t.added > ${cents('t.allowed::numeric * c.amount_total')}`,
    cardinal: { groups: ['OCID'], value: (f) => Number(f.share) },
    reason: (f) =>
      `${Number(f.terms) === 1 ? 'O termo aditivo acrescenta' : `Os ${f.terms} termos aditivos acrescentam`} ` +
      `${reais(f.added as string)}, ${percent(f.share as number, f.allowed)} do valor inicial de ` +
      `${reais(f.initial as string)}, acima dos ${percent(f.allowed as number)} do art. 125.`,
  },
  {
    code: 'R018',
    title: 'Licitação competitiva com um só fornecedor',
    basis: 'Lei 14.133/2021, art. 11 (competição); OCP R018',
    meaning:
      'Uma licitação competitiva (pregão, concorrência) concluída com um só fornecedor para todos os ' +
      'itens pode indicar pouca competição: edital restritivo, pouca divulgação ou combinação entre ' +
      'concorrentes.',
    caveat:
      'Os registros dizem quem venceu, não quantos disputaram: uma licitação de um lote pode ter tido ' +
      'muitos concorrentes. Licitações de um único item conhecido não são sinalizadas.',
    scope: 'organization',
    sql: (orgs) => `
      SELECT 'R018:' || b.id AS key, 'R018' AS code, b.organization_id, ${yearOf('b.opening_date')} AS year,
        ${providersOf('b.id')} AS supplier_ids, jsonb_build_array(${record('public-calls', 'b.id::text')}) AS records,
        jsonb_build_object('value', ${money('coalesce(b.sum_amount_total_finish, b.sum_amount_total)')},
          'items', i.items) AS figures
      FROM biddings b
      CROSS JOIN LATERAL (SELECT count(*)::int AS items FROM bidding_items i WHERE i.bidding_id = b.id) i
      WHERE b.kind = 'public_call' AND b.organization_id IN (${orgs}) AND b.opening_date IS NOT NULL
        AND b.modality_id IN (${COMPETITIVE})
        AND b.status_id IN (${statusIds('Adjudicado', 'Homologado', 'Concluído')})
        AND (SELECT count(DISTINCT p.supplier_id) FROM bidding_providers p WHERE p.bidding_id = b.id) = 1
        -- A call of one item has one winner whatever the competition: only calls of several items, or of items unknown.
        AND i.items <> 1`,
    cardinal: { groups: ['OCID'], value: () => 1 },
    reason: (f) =>
      Number(f.items) > 1
        ? `Licitação competitiva de ${f.items} itens, de ${reais(f.value as string)}, concluída com um só fornecedor para todos.`
        : `Licitação competitiva de ${reais(f.value as string)} concluída com um só fornecedor.`,
  },
  {
    code: 'BR-PRAZO-PROPOSTA',
    title: 'Prazo de propostas menor que o mínimo legal',
    basis: 'Lei 14.133/2021, art. 55 (prazos mínimos em dias úteis)',
    meaning:
      'A lei fixa prazos mínimos, em dias úteis, entre a divulgação do edital e a entrega das propostas' +
      ' (art. 55): um prazo curto limita quem pode concorrer. O sinal conta os dias úteis entre a ' +
      'abertura e o encerramento das propostas.',
    caveat:
      'O prazo conta da divulgação do edital, que pode ser anterior à abertura das propostas; feriados ' +
      'não são descontados; as compras do SUS pelo Ministério da Saúde podem ter prazos reduzidos à ' +
      'metade (art. 55, § 2º).',
    scope: 'organization',
    sql: (orgs) => `
      SELECT 'BR-PRAZO-PROPOSTA:' || b.id AS key, 'BR-PRAZO-PROPOSTA' AS code, b.organization_id,
        ${yearOf('b.opening_date')} AS year, ${providersOf('b.id')} AS supplier_ids,
        jsonb_build_array(${record('public-calls', 'b.id::text')}) AS records,
        jsonb_build_object('working_days', w.days, 'minimum', w.minimum,
          'opening', to_char(b.opening_date AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD'),
          'closing', to_char(b.closing_date AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD')) AS figures
      FROM biddings b
      CROSS JOIN LATERAL (
        SELECT (SELECT count(*)::int FROM generate_series(
                  (b.opening_date AT TIME ZONE 'America/Sao_Paulo')::date + 1,
                  (b.closing_date AT TIME ZONE 'America/Sao_Paulo')::date, interval '1 day') g(d)
                WHERE extract(isodow FROM g.d) < 6) AS days,
               CASE WHEN b.judgment_criteria ~* 't[ée]cnica' THEN ${MIN_DAYS_TECHNIQUE} ELSE ${MIN_DAYS} END AS minimum) w
      WHERE b.kind = 'public_call' AND b.organization_id IN (${orgs}) AND b.modality_id IN (${WITH_PROPOSAL_PERIOD})
        AND b.opening_date >= '${LAW_IN_FORCE} 00:00-03' AND b.closing_date > b.opening_date
        AND w.days < w.minimum`,
    cardinal: { groups: ['OCID'], value: (f) => ratio(f.working_days, f.minimum) },
    reason: (f) =>
      `Propostas recebidas de ${day(f.opening as string)} a ${day(f.closing as string)}: ${f.working_days} dias ` +
      `úteis, menos que os ${f.minimum} do art. 55.`,
  },
  {
    code: 'R050',
    title: 'Fornecedor com mais da metade do valor contratado pelo órgão no ano',
    basis: 'Lei 14.133/2021, art. 11 (competição); OCP R050',
    meaning:
      'Um fornecedor que recebe mais da metade do que um órgão contratou no ano concentra o gasto do ' +
      'órgão: vale ver como foi escolhido em cada contratação.',
    caveat:
      'Um contrato grande (energia, obra, serviço contínuo) ou um fornecedor exclusivo explicam muitas ' +
      'concentrações. Anos com menos de 5 contratações não são avaliados.',
    scope: 'organization',
    sql: (_orgs, commitments) => `
      SELECT 'R050:' || g.organization_id || ':' || g.year || ':' || g.supplier_id AS key, 'R050' AS code,
        g.organization_id, g.year, ARRAY[g.supplier_id] AS supplier_ids,
        jsonb_build_array(${record('organizations', 'g.organization_id::text')}) AS records,
        jsonb_build_object('supplier_value', ${money('g.value')}, 'committed', ${money('g.total')},
          'share', ${share('g.value / g.total')}, 'commitments', g.commitments, 'year', g.year) AS figures
      FROM (SELECT k.organization_id, k.year, k.supplier_id, sum(k.value) AS value,
              sum(sum(k.value)) OVER (PARTITION BY k.organization_id, k.year) AS total,
              sum(count(*)) OVER (PARTITION BY k.organization_id, k.year)::int AS commitments
            FROM ${commitments} k GROUP BY k.organization_id, k.year, k.supplier_id) g
      WHERE g.total > 0 AND g.commitments >= ${MIN_COMMITMENTS} AND g.value > 0.5 * g.total`,
    cardinal: { groups: ['Buyer', 'Tenderer'], value: (f) => Number(f.share) },
    reason: (f) =>
      `Um só fornecedor recebeu ${reais(f.supplier_value as string)}, ${percent(f.share as number)} dos ` +
      `${reais(f.committed as string)} contratados pelo órgão em ${f.year} (${f.commitments} contratações).`,
  },
  {
    code: 'R013',
    title: 'Órgão que mais recorre à contratação direta',
    basis: 'Lei 14.133/2021, arts. 72 a 75 (a contratação direta é a exceção); OCP R013',
    meaning:
      'A contratação direta (dispensa e inexigibilidade) é a exceção à licitação. O sinal compara a ' +
      'parte do valor contratado por contratação direta de cada órgão com a dos outros órgãos no mesmo ' +
      'ano, e aponta os que ficam muito acima (acima de Q3 + 1,5 × IQR).',
    caveat:
      'Órgãos de saúde em emergência, ou que compram de fornecedores exclusivos, contratam diretamente ' +
      'por lei. É uma comparação entre órgãos, não uma regra da lei.',
    scope: 'all',
    sql: () => fenced('R013', 'direct_share', 'direct_share'),
    cardinal: { groups: ['Buyer'], value: (f) => Number(f.direct_share) },
    reason: (f) =>
      `${percent(f.direct_share as number)} do valor contratado pelo órgão no ano foi por contratação direta, acima ` +
      `da cerca de ${percent(f.fence as number)} entre ${f.organizations} órgãos (mediana: ${percent(f.median as number)}).`,
  },
  {
    code: 'R051',
    title: 'Contratações concentradas em poucos fornecedores',
    basis: 'Lei 14.133/2021, art. 11 (competição); OCP R051 (índice de Herfindahl)',
    meaning:
      'Mede quanto as contratações de um órgão no ano se concentram em poucos fornecedores (índice de ' +
      'Herfindahl: 1 quando um só recebe tudo) e aponta os órgãos muito acima dos outros no mesmo ano.',
    caveat:
      'Órgãos pequenos, com poucas compras, têm poucos fornecedores naturalmente. É uma comparação ' +
      'entre órgãos, não uma regra da lei.',
    scope: 'all',
    sql: () => fenced('R051', 'hhi', 'hhi'),
    cardinal: { groups: ['Buyer'], value: (f) => Number(f.hhi) },
    reason: (f) =>
      `O índice de concentração (Herfindahl) dos fornecedores do órgão no ano é ${percent(f.hhi as number)}, acima ` +
      `da cerca de ${percent(f.fence as number)} entre ${f.organizations} órgãos (mediana: ${percent(f.median as number)}).`,
  },
] as const satisfies readonly Indicator[]

export type IndicatorCode = (typeof INDICATORS)[number]['code']

export const INDICATOR_CODES: readonly IndicatorCode[] = INDICATORS.map((indicator) => indicator.code)

/** An indicator by its code. */
export const indicatorOf = (code: string): Indicator | undefined =>
  (INDICATORS as readonly Indicator[]).find((indicator) => indicator.code === code)

/**
 * The organizations' years the organization-wide indicators compare (integrity_organization_years), from the
 * commitments of the organizations in scope: each year's commitments, what they add up to, the share by direct contract
 * (Dispensa and Inexigibilidade) and the Herfindahl index of its suppliers' shares.
 */
export const organizationYearsSql = (commitments: string) => `
  INSERT INTO integrity_organization_years (organization_id, year, commitments, committed, direct_share, hhi)
  SELECT g.organization_id, g.year, sum(g.commitments)::int, sum(g.value),
    CASE WHEN sum(g.value) > 0 THEN coalesce(sum(g.direct), 0) / sum(g.value) ELSE 0 END,
    CASE WHEN sum(g.value) > 0 THEN sum(g.value * g.value) / (sum(g.value) * sum(g.value)) ELSE 0 END
  FROM (SELECT k.organization_id, k.year, k.supplier_id, count(*) AS commitments, sum(k.value) AS value,
          sum(k.value) FILTER (WHERE k.modality_id IN (${modalityIds('Dispensa sem Disputa', 'Dispensa Eletrônica', 'Inexigibilidade')}))
            AS direct
        FROM ${commitments} k GROUP BY k.organization_id, k.year, k.supplier_id) g
  GROUP BY g.organization_id, g.year`
