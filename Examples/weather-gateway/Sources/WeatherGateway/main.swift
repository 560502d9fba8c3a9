import Forecast
import Gateway

// Serves the weather catalog with the framework's configuration, operations routes, metrics,
// logs and graceful shutdown: `weather-gateway --help` lists the variables.
GatewayCommand.main(catalog: .weather)
