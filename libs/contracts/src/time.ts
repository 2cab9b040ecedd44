/** The local datetime form the specification's task record uses: `YYYY-MM-DD HH:MM:SS`. */
export const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
