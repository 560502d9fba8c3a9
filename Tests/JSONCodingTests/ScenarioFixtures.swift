/// The upstream payloads of the reference scenario (SCENARIO.md), byte for byte as the upstreams
/// (and the benchmark's simulator) send them.
enum ScenarioFixtures {
    static let shuffle = #"{"success":true,"deck_id":"3p40paa87x90","shuffled":true,"remaining":52}"#

    static let draw = #"{"success":true,"deck_id":"3p40paa87x90","cards":[{"code":"6H","image":"https://deckofcardsapi.com/static/img/6H.png","images":{"svg":"https://deckofcardsapi.com/static/img/6H.svg","png":"https://deckofcardsapi.com/static/img/6H.png"},"value":"6","suit":"HEARTS"},{"code":"KS","image":"https://deckofcardsapi.com/static/img/KS.png","images":{"svg":"https://deckofcardsapi.com/static/img/KS.svg","png":"https://deckofcardsapi.com/static/img/KS.png"},"value":"KING","suit":"SPADES"}],"remaining":50}"#

    static let unknownDeck = #"{"success":false,"error":"Deck ID does not exist."}"#

    static let luke = #"{"name":"Luke Skywalker","height":"172","mass":"77","hair_color":"blond","skin_color":"fair","eye_color":"blue","birth_year":"19BBY","gender":"male","homeworld":"https://swapi.dev/api/planets/1/","films":["https://swapi.dev/api/films/1/"],"species":[],"vehicles":["https://swapi.dev/api/vehicles/14/"],"starships":["https://swapi.dev/api/starships/12/","https://swapi.dev/api/starships/22/"],"created":"2014-12-09T13:50:51.644000Z","edited":"2014-12-20T21:17:56.891000Z","url":"https://swapi.dev/api/people/1/"}"#

    static let tatooine = #"{"name":"Tatooine","rotation_period":"23","orbital_period":"304","diameter":"10465","climate":"arid","gravity":"1 standard","terrain":"desert","surface_water":"1","population":"200000","residents":["https://swapi.dev/api/people/1/","https://swapi.dev/api/people/2/"],"films":["https://swapi.dev/api/films/1/"],"created":"2014-12-09T13:50:49.641000Z","edited":"2014-12-20T20:58:18.411000Z","url":"https://swapi.dev/api/planets/1/"}"#

    static let xWing = #"{"name":"X-wing","model":"T-65 X-wing","manufacturer":"Incom Corporation","cost_in_credits":"149999","length":"12.5","max_atmosphering_speed":"1050","crew":"1","passengers":"0","cargo_capacity":"110","consumables":"1 week","hyperdrive_rating":"1.0","MGLT":"100","starship_class":"Starfighter","pilots":["https://swapi.dev/api/people/1/"],"films":["https://swapi.dev/api/films/1/"],"created":"2014-12-12T11:19:05.340000Z","edited":"2014-12-20T21:23:49.886000Z","url":"https://swapi.dev/api/starships/12/"}"#

    static let swapiNotFound = #"{"detail":"Not found"}"#

    /// `menu_response.json` of the restaurant API, including its whitespace and trailing newline.
    static let menu = """
    [
      { "name": "Penne all'Arrabbiata", "category": "pastas", "spicy": true, "price": 4.5 },
      { "name": "Tortiglioni alla Puttanesca", "category": "pastas", "spicy": false, "price": 4.5 },
      { "name": "Spaghetti Aglio, Olio, e Peperoncino", "category": "pastas", "spicy": true, "price": 8.0 },
      { "name": "Tortellini alla Panna", "category": "pastas", "spicy": false, "price": 6.0 },

      { "name": "Caprese Salad", "category": "starters", "spicy": false, "price": 6.0 },
      { "name": "Arancini Balls", "category": "starters", "spicy": false, "price": 6.0 },

      { "name": "Tiramisù", "category": "desserts", "spicy": false, "price": 6.0 },
      { "name": "Panna Cotta", "category": "desserts", "spicy": false, "price": 6.0 },

      { "name": "Sangiovese (Red Wine)", "category": "drinks", "spicy": false, "price": 4.5 },
      { "name": "Prosecco (White Wine)", "category": "drinks", "spicy": false, "price": 4.5 },
      { "name": "Water", "category": "drinks", "spicy": false, "price": 1.0 }
    ]

    """

    static let dishOfTheDay = """
    { "name": "Spaghetti Carbonara", "category": "pastas", "spicy": false, "price": 7.5 }

    """
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
