import HTTPBasics
import UpstreamKit

/// The scenario's upstream shapes, as the gateway would decode them.
struct Shuffle: Decodable, Sendable, Equatable {
    var success: Bool
    var deck_id: String
    var shuffled: Bool
    var remaining: Int
}

struct Draw: Decodable, Sendable {
    struct Card: Decodable, Sendable {
        var code: String
        var value: String
        var suit: String
    }

    var success: Bool
    var deck_id: String
    var cards: [Card]
    var remaining: Int
}

struct Person: Decodable, Sendable {
    var name: String
    var birth_year: String
    var homeworld: String
    var starships: [String]
}

struct Planet: Decodable, Sendable {
    var name: String
    var climate: String
    var population: String
}

struct Starship: Decodable, Sendable {
    var name: String
    var model: String
    var starship_class: String
}

struct Dish: Decodable, Sendable, Equatable {
    var name: String
    var category: String
    var spicy: Bool
    var price: Double
}

enum Bodies {
    static let shuffle = #"{"success":true,"deck_id":"3p40paa87x90","shuffled":true,"remaining":52}"#
    static let draw = #"{"success":true,"deck_id":"3p40paa87x90","cards":[{"code":"6H","image":"https://deckofcardsapi.com/static/img/6H.png","images":{"svg":"https://deckofcardsapi.com/static/img/6H.svg","png":"https://deckofcardsapi.com/static/img/6H.png"},"value":"6","suit":"HEARTS"}],"remaining":51}"#
    static let luke = #"{"name":"Luke Skywalker","height":"172","mass":"77","hair_color":"blond","skin_color":"fair","eye_color":"blue","birth_year":"19BBY","gender":"male","homeworld":"https://swapi.dev/api/planets/1/","films":["https://swapi.dev/api/films/1/"],"species":[],"vehicles":["https://swapi.dev/api/vehicles/14/"],"starships":["https://swapi.dev/api/starships/12/","https://swapi.dev/api/starships/22/"],"created":"2014-12-09T13:50:51.644000Z","edited":"2014-12-20T21:17:56.891000Z","url":"https://swapi.dev/api/people/1/"}"#
    static let tatooine = #"{"name":"Tatooine","rotation_period":"23","orbital_period":"304","diameter":"10465","climate":"arid","gravity":"1 standard","terrain":"desert","surface_water":"1","population":"200000","residents":[],"films":[],"created":"x","edited":"y","url":"https://swapi.dev/api/planets/1/"}"#
    static let xwing = #"{"name":"X-wing","model":"T-65 X-wing","manufacturer":"Incom Corporation","cost_in_credits":"149999","length":"12.5","max_atmosphering_speed":"1050","crew":"1","passengers":"0","cargo_capacity":"110","consumables":"1 week","hyperdrive_rating":"1.0","MGLT":"100","starship_class":"Starfighter","pilots":[],"films":[],"created":"x","edited":"y","url":"https://swapi.dev/api/starships/12/"}"#
    static let menu = #"[{"name":"Penne all'Arrabbiata","category":"pastas","spicy":true,"price":4.5},{"name":"Bruschetta","category":"starters","spicy":false,"price":3}]"#
    static let dishOfTheDay = #"{"name":"Spaghetti Carbonara","category":"pastas","spicy":false,"price":7.5}"#
}

/// The scenario's upstreams, at their public addresses.
enum Bases {
    static var deck: BaseURL { get throws { try BaseURL("https://deckofcardsapi.com/api/deck") } }
    static var swapi: BaseURL { get throws { try BaseURL("https://swapi.dev/api") } }
    static var menu: BaseURL { get throws { try BaseURL("https://raw.githubusercontent.com/mokagio/tddinswift_fake_api/trunk") } }
}

/// A response carrying `text` as its body, JSON unless `headers` say otherwise.
func json(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = ["Content-Type": "application/json"]) -> Response {
    Response(status: status, headers: headers, body: Array(text.utf8))
}
