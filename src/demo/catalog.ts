// What public bodies buy: products with their unit, usual brands and a unit price range in cents,
// grouped by the object of the purchase and its expense classification.

export interface Product {
  description: string
  unit: string
  brands: readonly string[]
  minCents: number
  maxCents: number
  /** Also sold by the box (CX) of this many units, at a discount. */
  box?: number
}

export interface Category {
  object: string
  expense: string
  products: readonly Product[]
}

const CONSUMO = '3.3.90.30 - Material de Consumo'
const PERMANENTE = '4.4.90.52 - Equipamentos e Material Permanente'
const SERVICOS = '3.3.90.39 - Outros Serviços de Terceiros - Pessoa Jurídica'

export const EXPENSE_TYPES = ['1 - Ordinária', '2 - Estimativa', '3 - Global'] as const

export const CATALOG: readonly Category[] = [
  {
    object: 'Aquisição de material de expediente para atender às necessidades da {unit}',
    expense: CONSUMO,
    products: [
      {
        description: 'Papel sulfite A4 75 g/m², pacote com 500 folhas',
        unit: 'PCT',
        brands: ['Chamex', 'Report', 'Chamequinho'],
        minCents: 2190,
        maxCents: 3490,
      },
      {
        description: 'Caneta esferográfica azul, ponta média 1,0 mm',
        unit: 'UN',
        brands: ['BIC', 'Faber-Castell', 'Compactor'],
        minCents: 89,
        maxCents: 250,
        box: 50,
      },
      {
        description: 'Grampeador de mesa para 25 folhas',
        unit: 'UN',
        brands: ['Jocar', 'Cis', 'Tilibra'],
        minCents: 1890,
        maxCents: 4590,
      },
      {
        description: 'Pasta suspensa marmorizada com grampo plástico',
        unit: 'UN',
        brands: ['Dello', 'Polycart', 'Chies'],
        minCents: 190,
        maxCents: 420,
      },
      {
        description: 'Toner compatível para impressora laser, rendimento 3.000 páginas',
        unit: 'UN',
        brands: ['HP', 'Brother', 'Samsung'],
        minCents: 8900,
        maxCents: 32000,
      },
      {
        description: 'Envelope pardo tamanho ofício 240 x 340 mm',
        unit: 'CX',
        brands: ['Foroni', 'Scrity', 'Tilibra'],
        minCents: 4500,
        maxCents: 9800,
      },
    ],
  },
  {
    object: 'Aquisição de material de limpeza e higienização para a {unit}',
    expense: CONSUMO,
    products: [
      {
        description: 'Água sanitária 2,5% de cloro ativo, frasco de 1 litro',
        unit: 'FR',
        brands: ['Qboa', 'Ypê', 'Super Cândida'],
        minCents: 290,
        maxCents: 690,
      },
      {
        description: 'Detergente líquido neutro, frasco de 500 ml',
        unit: 'FR',
        brands: ['Ypê', 'Limpol', 'Minuano'],
        minCents: 199,
        maxCents: 450,
      },
      {
        description: 'Papel higiênico folha dupla, fardo com 64 rolos de 30 m',
        unit: 'FD',
        brands: ['Neve', 'Personal', 'Mili'],
        minCents: 6490,
        maxCents: 12900,
      },
      {
        description: 'Saco de lixo preto 100 litros, pacote com 100 unidades',
        unit: 'PCT',
        brands: ['Embalixo', 'Dover Roll', 'Plastiflex'],
        minCents: 3290,
        maxCents: 7900,
      },
      {
        description: 'Álcool etílico 70% em gel, frasco de 500 g',
        unit: 'FR',
        brands: ['Asseptgel', 'Tupi', 'Start'],
        minCents: 690,
        maxCents: 1690,
      },
    ],
  },
  {
    object: 'Aquisição de gêneros alimentícios para a alimentação escolar da rede municipal de ensino',
    expense: CONSUMO,
    products: [
      {
        description: 'Arroz branco tipo 1, pacote de 5 kg',
        unit: 'PCT',
        brands: ['Tio João', 'Camil', 'Prato Fino'],
        minCents: 1890,
        maxCents: 3290,
      },
      {
        description: 'Feijão carioca tipo 1, pacote de 1 kg',
        unit: 'PCT',
        brands: ['Kicaldo', 'Camil', 'Broto Legal'],
        minCents: 599,
        maxCents: 1190,
      },
      {
        description: 'Leite integral UHT, caixa de 1 litro',
        unit: 'CX',
        brands: ['Italac', 'Piracanjuba', 'Parmalat'],
        minCents: 429,
        maxCents: 789,
      },
      {
        description: 'Óleo de soja refinado, garrafa de 900 ml',
        unit: 'GF',
        brands: ['Soya', 'Liza', 'Cocamar'],
        minCents: 589,
        maxCents: 1099,
      },
      {
        description: 'Carne bovina moída resfriada, patinho',
        unit: 'KG',
        brands: ['Friboi', 'Minerva', 'Marfrig'],
        minCents: 2990,
        maxCents: 4990,
      },
      {
        description: 'Banana prata de primeira qualidade',
        unit: 'KG',
        brands: ['Ceasa', 'Produtor local', 'Agricultura familiar'],
        minCents: 390,
        maxCents: 790,
      },
    ],
  },
  {
    object: 'Aquisição de medicamentos e insumos hospitalares para a rede municipal de saúde',
    expense: CONSUMO,
    products: [
      {
        description: 'Dipirona sódica 500 mg, comprimido',
        unit: 'CP',
        brands: ['EMS', 'Medley', 'Prati-Donaduzzi'],
        minCents: 8,
        maxCents: 35,
      },
      {
        description: 'Amoxicilina 500 mg, cápsula',
        unit: 'CAP',
        brands: ['EMS', 'Eurofarma', 'Neo Química'],
        minCents: 18,
        maxCents: 60,
      },
      {
        description: 'Luva de procedimento em látex, tamanho M, caixa com 100',
        unit: 'CX',
        brands: ['Supermax', 'Descarpack', 'Talge'],
        minCents: 2490,
        maxCents: 4990,
      },
      {
        description: 'Seringa descartável 5 ml com agulha 25 x 7',
        unit: 'UN',
        brands: ['BD', 'Descarpack', 'SR'],
        minCents: 39,
        maxCents: 95,
      },
      {
        description: 'Máscara cirúrgica tripla com elástico',
        unit: 'UN',
        brands: ['Descarpack', 'Medix', 'Protdesc'],
        minCents: 15,
        maxCents: 60,
      },
    ],
  },
  {
    object: 'Aquisição de computadores e equipamentos de informática para modernização da {unit}',
    expense: PERMANENTE,
    products: [
      {
        description: 'Computador desktop, processador 8 núcleos, 16 GB de memória, SSD 512 GB',
        unit: 'UN',
        brands: ['Dell', 'Lenovo', 'Positivo'],
        minCents: 389000,
        maxCents: 649000,
      },
      {
        description: 'Notebook 14 polegadas, 16 GB de memória, SSD 512 GB',
        unit: 'UN',
        brands: ['Dell', 'Lenovo', 'Samsung'],
        minCents: 429000,
        maxCents: 789000,
      },
      {
        description: 'Monitor LED 24 polegadas Full HD',
        unit: 'UN',
        brands: ['LG', 'AOC', 'Samsung'],
        minCents: 69000,
        maxCents: 119000,
      },
      {
        description: 'Impressora multifuncional laser monocromática',
        unit: 'UN',
        brands: ['HP', 'Brother', 'Epson'],
        minCents: 149000,
        maxCents: 289000,
      },
      {
        description: 'Nobreak 1500 VA bivolt',
        unit: 'UN',
        brands: ['SMS', 'APC', 'Ragtech'],
        minCents: 89000,
        maxCents: 159000,
      },
    ],
  },
  {
    object: 'Aquisição de mobiliário para as unidades da {unit}',
    expense: PERMANENTE,
    products: [
      {
        description: 'Cadeira giratória com braços e regulagem de altura',
        unit: 'UN',
        brands: ['Cavaletti', 'Flexform', 'Frisokar'],
        minCents: 42000,
        maxCents: 98000,
      },
      {
        description: 'Mesa de escritório em L, 1,50 x 1,50 m',
        unit: 'UN',
        brands: ['Pandin', 'Marzo', 'Alberflex'],
        minCents: 79000,
        maxCents: 159000,
      },
      {
        description: 'Armário de aço com duas portas e quatro prateleiras',
        unit: 'UN',
        brands: ['Pandin', 'Amapá', 'Fiel'],
        minCents: 89000,
        maxCents: 169000,
      },
      {
        description: 'Conjunto escolar aluno, mesa e cadeira, tamanho 6',
        unit: 'CJ',
        brands: ['Metalúrgica Fuck', 'Delta Móveis', 'Desk Móveis'],
        minCents: 31000,
        maxCents: 52000,
      },
    ],
  },
  {
    object: 'Aquisição de combustível para a frota de veículos da {unit}',
    expense: CONSUMO,
    products: [
      {
        description: 'Gasolina comum',
        unit: 'L',
        brands: ['Petrobras', 'Ipiranga', 'Shell'],
        minCents: 559,
        maxCents: 689,
      },
      {
        description: 'Óleo diesel S10',
        unit: 'L',
        brands: ['Petrobras', 'Ipiranga', 'Shell'],
        minCents: 589,
        maxCents: 699,
      },
      {
        description: 'Etanol hidratado',
        unit: 'L',
        brands: ['Petrobras', 'Ipiranga', 'Raízen'],
        minCents: 379,
        maxCents: 489,
      },
    ],
  },
  {
    object: 'Contratação de serviços de manutenção predial para os prédios da {unit}',
    expense: SERVICOS,
    products: [
      {
        description: 'Serviço de pintura interna com tinta acrílica',
        unit: 'M2',
        brands: ['Suvinil', 'Coral', 'Sherwin-Williams'],
        minCents: 1890,
        maxCents: 3990,
      },
      {
        description: 'Serviço de manutenção preventiva de ar-condicionado split',
        unit: 'SV',
        brands: ['Não se aplica', 'Serviço', 'Mão de obra'],
        minCents: 15000,
        maxCents: 32000,
      },
      {
        description: 'Serviço de troca de telhas de fibrocimento',
        unit: 'M2',
        brands: ['Brasilit', 'Eternit', 'Precon'],
        minCents: 4500,
        maxCents: 8900,
      },
    ],
  },
]

export const DELIVERY_PLACES = [
  'Almoxarifado Central, {street}, {city}/{uf}',
  'Sede da {unit}, {street}, {city}/{uf}',
  'Depósito Municipal, {street}, {city}/{uf}',
] as const

export const TERM_KINDS = [
  'Aditivo de prazo',
  'Aditivo de valor',
  'Aditivo de prazo e valor',
  'Apostilamento',
] as const
export const DISPUTE_MODES = ['Aberto', 'Aberto e fechado', 'Fechado e aberto'] as const
export const ADJUDICATION_MODES = ['Por item', 'Por lote', 'Global'] as const
export const JUDGMENT_CRITERIA = [
  'Menor preço',
  'Maior desconto',
  'Técnica e preço',
  'Melhor técnica',
] as const
export const PERSON_OFFICES = [
  'Analista Administrativo',
  'Assistente Administrativo',
  'Engenheiro Civil',
  'Enfermeiro',
  'Professor',
  'Contador',
  'Técnico em Informática',
] as const
