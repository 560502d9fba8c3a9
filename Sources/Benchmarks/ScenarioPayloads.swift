/// Upstream bodies as the simulator (`shared/bench/upstream-sim`) serves them: byte copies of
/// the menu file and of SWAPI's person 1, planet 1 and starship 12, and a 10-card deck draw.
enum ScenarioPayloads {
    static let menu = Array(#"""
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
"""#.utf8)

    static let dishOfTheDay = Array(#"{ "name": "Spaghetti Carbonara", "category": "pastas", "spicy": false, "price": 7.5 }"#.utf8)

    static let person = Array(#"""
{"name":"Luke Skywalker","height":"172","mass":"77","hair_color":"blond","skin_color":"fair","eye_color":"blue","birth_year":"19BBY","gender":"male","homeworld":"http://127.0.0.1:44055/swapi/api/planets/1/","films":["http://127.0.0.1:44055/swapi/api/films/1/"],"species":[],"vehicles":["http://127.0.0.1:44055/swapi/api/vehicles/14/"],"starships":["http://127.0.0.1:44055/swapi/api/starships/12/","http://127.0.0.1:44055/swapi/api/starships/22/"],"created":"2014-12-09T13:50:51.644000Z","edited":"2014-12-20T21:17:56.891000Z","url":"http://127.0.0.1:44055/swapi/api/people/1/"}
"""#.utf8)

    static let planet = Array(#"""
{"name":"Tatooine","rotation_period":"23","orbital_period":"304","diameter":"10465","climate":"arid","gravity":"1 standard","terrain":"desert","surface_water":"1","population":"200000","residents":["http://127.0.0.1:44055/swapi/api/people/1/","http://127.0.0.1:44055/swapi/api/people/2/","http://127.0.0.1:44055/swapi/api/people/4/","http://127.0.0.1:44055/swapi/api/people/6/","http://127.0.0.1:44055/swapi/api/people/7/","http://127.0.0.1:44055/swapi/api/people/8/","http://127.0.0.1:44055/swapi/api/people/9/","http://127.0.0.1:44055/swapi/api/people/11/"],"films":["http://127.0.0.1:44055/swapi/api/films/1/","http://127.0.0.1:44055/swapi/api/films/3/","http://127.0.0.1:44055/swapi/api/films/4/","http://127.0.0.1:44055/swapi/api/films/5/","http://127.0.0.1:44055/swapi/api/films/6/"],"created":"2014-12-09T13:50:49.641000Z","edited":"2014-12-20T20:58:18.411000Z","url":"http://127.0.0.1:44055/swapi/api/planets/1/"}
"""#.utf8)

    static let starship = Array(#"""
{"name":"X-wing","model":"T-65 X-wing","manufacturer":"Incom Corporation","cost_in_credits":"149999","length":"12.5","max_atmosphering_speed":"1050","crew":"1","passengers":"0","cargo_capacity":"110","consumables":"1 week","hyperdrive_rating":"1.0","MGLT":"100","starship_class":"Starfighter","pilots":["http://127.0.0.1:44055/swapi/api/people/1/","http://127.0.0.1:44055/swapi/api/people/9/","http://127.0.0.1:44055/swapi/api/people/18/","http://127.0.0.1:44055/swapi/api/people/19/"],"films":["http://127.0.0.1:44055/swapi/api/films/1/","http://127.0.0.1:44055/swapi/api/films/2/","http://127.0.0.1:44055/swapi/api/films/3/"],"created":"2014-12-12T11:19:05.340000Z","edited":"2014-12-20T21:23:49.886000Z","url":"http://127.0.0.1:44055/swapi/api/starships/12/"}
"""#.utf8)

    static let deckDraw = Array(#"""
{"success":true,"deck_id":"p3mqlyvcvjyl","cards":[{"code":"2D","image":"http://127.0.0.1:44055/deck/static/img/2D.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/2D.svg","png":"http://127.0.0.1:44055/deck/static/img/2D.png"},"value":"2","suit":"DIAMONDS"},{"code":"3D","image":"http://127.0.0.1:44055/deck/static/img/3D.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/3D.svg","png":"http://127.0.0.1:44055/deck/static/img/3D.png"},"value":"3","suit":"DIAMONDS"},{"code":"3S","image":"http://127.0.0.1:44055/deck/static/img/3S.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/3S.svg","png":"http://127.0.0.1:44055/deck/static/img/3S.png"},"value":"3","suit":"SPADES"},{"code":"5C","image":"http://127.0.0.1:44055/deck/static/img/5C.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/5C.svg","png":"http://127.0.0.1:44055/deck/static/img/5C.png"},"value":"5","suit":"CLUBS"},{"code":"AD","image":"http://127.0.0.1:44055/deck/static/img/aceDiamonds.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/aceDiamonds.svg","png":"http://127.0.0.1:44055/deck/static/img/aceDiamonds.png"},"value":"ACE","suit":"DIAMONDS"},{"code":"6C","image":"http://127.0.0.1:44055/deck/static/img/6C.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/6C.svg","png":"http://127.0.0.1:44055/deck/static/img/6C.png"},"value":"6","suit":"CLUBS"},{"code":"6D","image":"http://127.0.0.1:44055/deck/static/img/6D.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/6D.svg","png":"http://127.0.0.1:44055/deck/static/img/6D.png"},"value":"6","suit":"DIAMONDS"},{"code":"KD","image":"http://127.0.0.1:44055/deck/static/img/KD.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/KD.svg","png":"http://127.0.0.1:44055/deck/static/img/KD.png"},"value":"KING","suit":"DIAMONDS"},{"code":"8D","image":"http://127.0.0.1:44055/deck/static/img/8D.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/8D.svg","png":"http://127.0.0.1:44055/deck/static/img/8D.png"},"value":"8","suit":"DIAMONDS"},{"code":"KC","image":"http://127.0.0.1:44055/deck/static/img/KC.png","images":{"svg":"http://127.0.0.1:44055/deck/static/img/KC.svg","png":"http://127.0.0.1:44055/deck/static/img/KC.png"},"value":"KING","suit":"CLUBS"}],"remaining":42}
"""#.utf8)
}
