/** The PostgreSQL NOTIFY channel on which every import tells every instance that the data changed. */
export const DATA_CHANNEL = 'compras_data'
