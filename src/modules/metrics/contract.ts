// What other modules may use of metrics: where the scrape is served (nothing else: the module measures the app from outside).
export const METRICS_PATH = '/metrics';
