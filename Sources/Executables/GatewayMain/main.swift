import Gateway
import ReferenceScenario

GatewayCommand.main(catalog: .reference, catalogSwitch: .referenceEndpoints, demo: { try DemoUpstreams() })
