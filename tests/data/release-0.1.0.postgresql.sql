--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    id integer NOT NULL,
    name character varying(32) NOT NULL,
    name_key character varying(32) NOT NULL,
    password_hash character varying(255) NOT NULL,
    is_admin boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    last_login_at timestamp with time zone,
    color character varying(4) DEFAULT 'auto'::character varying NOT NULL,
    created_address character varying(64),
    watching_room_id integer
);


--
-- Name: accounts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.accounts_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: accounts_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.accounts_id_seq OWNED BY public.accounts.id;


--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


--
-- Name: card_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.card_versions (
    room_id integer NOT NULL,
    number integer NOT NULL,
    version integer NOT NULL,
    name character varying(80) NOT NULL,
    kind character varying(60) NOT NULL,
    text text NOT NULL,
    colour character varying(8) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    seq integer NOT NULL
);


--
-- Name: cards; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cards (
    room_id integer NOT NULL,
    number integer NOT NULL,
    name character varying(80) NOT NULL,
    kind character varying(60) NOT NULL,
    text text NOT NULL,
    author_account_id integer NOT NULL,
    author_name character varying(32) NOT NULL,
    zone character varying(10) NOT NULL,
    owner integer NOT NULL,
    "position" integer NOT NULL,
    attached_to integer,
    deck_owner integer NOT NULL,
    is_rule boolean DEFAULT false NOT NULL,
    colour character varying(8) DEFAULT ''::character varying NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    copy_of integer
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    room_id integer NOT NULL,
    seq integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    actor_account_id integer NOT NULL,
    actor_name character varying(32) NOT NULL,
    kind character varying(20) NOT NULL,
    forced boolean NOT NULL,
    data json NOT NULL,
    deltas json NOT NULL
);


--
-- Name: game_results; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_results (
    id integer NOT NULL,
    room_id integer NOT NULL,
    seq integer NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    result text NOT NULL,
    players json NOT NULL,
    outcome character varying(20) DEFAULT ''::character varying NOT NULL,
    winners json,
    deck_version integer
);


--
-- Name: game_results_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.game_results_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: game_results_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.game_results_id_seq OWNED BY public.game_results.id;


--
-- Name: player_decks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.player_decks (
    id integer NOT NULL,
    owner_account_id integer NOT NULL,
    name character varying(40) NOT NULL,
    name_key character varying(40) NOT NULL,
    room_name character varying(80) NOT NULL,
    set_version integer NOT NULL,
    card_count integer NOT NULL,
    saved_at timestamp with time zone NOT NULL,
    data json NOT NULL
);


--
-- Name: player_decks_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.player_decks_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: player_decks_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.player_decks_id_seq OWNED BY public.player_decks.id;


--
-- Name: proposals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.proposals (
    room_id integer NOT NULL,
    id integer NOT NULL,
    kind character varying(10) NOT NULL,
    subject integer NOT NULL,
    proposer_account_id integer NOT NULL,
    proposer_name character varying(32) NOT NULL,
    face json,
    bundle integer,
    status character varying(10) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    created_seq integer NOT NULL,
    decided_at timestamp with time zone,
    decided_seq integer
);


--
-- Name: room_talk; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.room_talk (
    id integer NOT NULL,
    room_id integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    text text NOT NULL
);


--
-- Name: room_talk_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.room_talk_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: room_talk_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.room_talk_id_seq OWNED BY public.room_talk.id;


--
-- Name: rooms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rooms (
    id integer NOT NULL,
    name character varying(40) NOT NULL,
    name_key character varying(40) NOT NULL,
    game character varying(20) NOT NULL,
    password_hash character varying(255),
    phase character varying(10) NOT NULL,
    host_account_id integer NOT NULL,
    settings json NOT NULL,
    seq integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    digest character varying(64) DEFAULT ''::character varying NOT NULL,
    created_by_account_id integer,
    used_at timestamp with time zone,
    archived_at timestamp with time zone,
    state json NOT NULL
);


--
-- Name: rooms_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.rooms_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: rooms_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.rooms_id_seq OWNED BY public.rooms.id;


--
-- Name: saved_decks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.saved_decks (
    id integer NOT NULL,
    name character varying(40) NOT NULL,
    name_key character varying(40) NOT NULL,
    owner_account_id integer NOT NULL,
    card_count integer NOT NULL,
    saved_at timestamp with time zone NOT NULL,
    data json NOT NULL,
    size_bytes integer DEFAULT 0 NOT NULL
);


--
-- Name: saved_decks_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.saved_decks_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: saved_decks_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.saved_decks_id_seq OWNED BY public.saved_decks.id;


--
-- Name: seats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seats (
    room_id integer NOT NULL,
    account_id integer NOT NULL,
    "position" integer NOT NULL,
    team character varying(20) NOT NULL,
    "out" boolean NOT NULL,
    away_since_seq integer,
    away_at timestamp with time zone,
    absent boolean DEFAULT false NOT NULL,
    name character varying(32) DEFAULT ''::character varying NOT NULL,
    bot character varying(10) DEFAULT ''::character varying NOT NULL
);


--
-- Name: votes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.votes (
    room_id integer NOT NULL,
    proposal_id integer NOT NULL,
    account_id integer NOT NULL,
    choice character varying(8) NOT NULL,
    voted_at timestamp with time zone NOT NULL,
    seq integer NOT NULL
);


--
-- Name: accounts id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts ALTER COLUMN id SET DEFAULT nextval('public.accounts_id_seq'::regclass);


--
-- Name: game_results id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_results ALTER COLUMN id SET DEFAULT nextval('public.game_results_id_seq'::regclass);


--
-- Name: player_decks id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_decks ALTER COLUMN id SET DEFAULT nextval('public.player_decks_id_seq'::regclass);


--
-- Name: room_talk id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_talk ALTER COLUMN id SET DEFAULT nextval('public.room_talk_id_seq'::regclass);


--
-- Name: rooms id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms ALTER COLUMN id SET DEFAULT nextval('public.rooms_id_seq'::regclass);


--
-- Name: saved_decks id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.saved_decks ALTER COLUMN id SET DEFAULT nextval('public.saved_decks_id_seq'::regclass);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.accounts (id, name, name_key, password_hash, is_admin, created_at, last_login_at, color, created_address, watching_room_id) FROM stdin;
2	Bo	bo	$argon2id$v=19$m=19456,t=2,p=1$60MwcvE0xebuoz5ncjPYHA$yG0/Nb/fk/ka/d0V3RaZArsVJ6ndcF1iWa3BV/b1y40	f	2026-12-01 22:25:57.303044+00	2026-12-01 22:25:57.303044+00	auto	127.0.0.1	\N
3	Cy	cy	$argon2id$v=19$m=19456,t=2,p=1$SX8EMpDZNiXKUflchDhUXQ$U+jILVV3nKyuWLJKSBy6CJix2swfz3aFr77rVPrq+C0	f	2026-12-01 22:25:57.422282+00	2026-12-01 22:25:57.422282+00	auto	127.0.0.1	\N
4	Ed	ed	$argon2id$v=19$m=19456,t=2,p=1$ADaaegelehw71lIghxlJ/Q$LiDHZ4JffRsmHPunsIYb2hzu8Y8+BbN1ZIP24B9m1d0	f	2026-12-01 22:25:58.031147+00	2026-12-01 22:25:58.031147+00	auto	127.0.0.1	2
5	Di	di	$argon2id$v=19$m=19456,t=2,p=1$dEvf4KzFar3xqNhRVhQ3YQ$vfv8N4vz/ldNC0IRHlP4M/sqMDZxK3OSVtmRZVur9cw	f	2026-12-01 22:25:58.142546+00	2026-12-01 22:25:58.142546+00	auto	127.0.0.1	\N
6	Fay	fay	$argon2id$v=19$m=19456,t=2,p=1$PUYhz9QaEhcoyl8CE43YYQ$g83qEJDBBtqt8pJvRvkW4Teh061UEeN5OX7ndI0b2yk	f	2026-12-01 22:25:58.233164+00	2026-12-01 22:25:58.233164+00	auto	127.0.0.1	\N
7	Gus	gus	$argon2id$v=19$m=19456,t=2,p=1$Z0vDGQjhY2Uyis3VKSQ4qg$76tO6UdJF/sZQgLS/Uqb2enLMpNu3Hmv4L3wM6fjGIE	f	2026-12-01 22:25:58.494166+00	2026-12-01 22:25:58.494166+00	auto	127.0.0.1	\N
8	Hana	hana	$argon2id$v=19$m=19456,t=2,p=1$3v0581N/vE0Huumo1qzZkQ$SnxxYsBTO1boWbzD/XSd4xu1ZCjCyD66rVf8JPxUu7k	f	2026-12-01 22:26:01.75242+00	2026-12-01 22:26:01.75242+00	auto	127.0.0.1	\N
1	Ann	ann	$argon2id$v=19$m=19456,t=2,p=1$byQcvrBLDBJ5MEXYewdxBA$8yH7cjUsbpt2pzNXOxakq3iAqGaHQnYsUs+ELgONURk	t	2026-12-01 22:25:57.02031+00	2026-12-01 22:25:57.194091+00	auto	127.0.0.1	\N
\.


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.alembic_version (version_num) FROM stdin;
0007
\.


--
-- Data for Name: card_versions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.card_versions (room_id, number, version, name, kind, text, colour, created_at, seq) FROM stdin;
1	1	1	Dust	T	Everywhere.		2026-12-01 22:25:57.069813+00	2
2	1	1	Robot	T	A plain robot.		2026-12-01 22:25:57.604769+00	3
2	2	1	Cat	T	A plain cat.		2026-12-01 22:25:57.609714+00	4
2	3	1	Teapot	T	A plain teapot.		2026-12-01 22:25:57.617925+00	5
2	4	1	Umbrella	T	A plain umbrella.		2026-12-01 22:25:57.625834+00	6
2	5	1	Bicycle	T	A plain bicycle.		2026-12-01 22:25:57.632057+00	7
2	6	1	Lantern	T	A plain lantern.		2026-12-01 22:25:57.637712+00	8
2	7	1	Anvil	T	A plain anvil.		2026-12-01 22:25:57.645911+00	9
2	8	1	Kite	T	A plain kite.		2026-12-01 22:25:57.654107+00	10
2	9	1	Compass	T	A plain compass.		2026-12-01 22:25:57.660232+00	11
2	10	1	Harp	T	A plain harp.		2026-12-01 22:25:57.665087+00	12
2	11	1	Mirror	T	A plain mirror.		2026-12-01 22:25:57.669203+00	13
2	12	1	Ladder	T	A plain ladder.		2026-12-01 22:25:57.675363+00	14
2	13	1	Swap	A	Do the swap.		2026-12-01 22:25:57.679122+00	15
2	14	1	Steal	A	Do the steal.		2026-12-01 22:25:57.682794+00	16
2	15	1	Shuffle Up	A	Do the shuffle up.		2026-12-01 22:25:57.686375+00	17
2	16	1	Recycle	A	Do the recycle.		2026-12-01 22:25:57.691844+00	18
2	17	1	Borrow	A	Do the borrow.		2026-12-01 22:25:57.700513+00	19
2	18	1	Trade	A	Do the trade.		2026-12-01 22:25:57.705168+00	20
2	19	1	Beacon	T	Glows in the dark.		2026-12-01 22:25:57.870169+00	35
2	20	1	Armageddon	A	Destroy all Things.		2026-12-01 22:25:57.915137+00	38
3	1	1	Goblin	T	Small and mean.		2026-12-01 22:25:58.280088+00	2
3	2	1	Troll	T	Big and slow.		2026-12-01 22:25:58.287061+00	3
3	3	1	Elf	A	Quick: draw a card.		2026-12-01 22:25:58.300389+00	4
3	4	1	Goblin	T	Small and mean.		2026-12-01 22:25:58.349861+00	9
3	5	1	Goblin	T	Small and mean.		2026-12-01 22:25:58.349861+00	9
3	6	1	Troll	T	Big and slow.		2026-12-01 22:25:58.356898+00	10
3	7	1	Troll	T	Big and slow.		2026-12-01 22:25:58.356898+00	10
3	8	1	Goblin	T	Small and mean.		2026-12-01 22:25:58.373636+00	11
3	9	1	Goblin	T	Small and mean.		2026-12-01 22:25:58.373636+00	11
3	10	1	Goblin	T	Small and mean.		2026-12-01 22:25:58.373636+00	11
3	11	1	Elf	A	Quick: draw a card.		2026-12-01 22:25:58.381705+00	12
\.


--
-- Data for Name: cards; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.cards (room_id, number, name, kind, text, author_account_id, author_name, zone, owner, "position", attached_to, deck_owner, is_rule, colour, version, copy_of) FROM stdin;
1	1	Dust	T	Everywhere.	1	Ann	draw	0	0	\N	0	f		1	\N
2	4	Umbrella	T	A plain umbrella.	1	Ann	hand	3	3	\N	0	f		1	\N
2	7	Anvil	T	A plain anvil.	1	Ann	hand	3	2	\N	0	f		1	\N
2	8	Kite	T	A plain kite.	1	Ann	play	3	0	\N	0	f		1	\N
2	9	Compass	T	A plain compass.	1	Ann	hand	3	4	\N	0	f		1	\N
2	10	Harp	T	A plain harp.	1	Ann	hand	3	0	\N	0	f		1	\N
2	12	Ladder	T	A plain ladder.	1	Ann	hand	3	1	\N	0	f		1	\N
2	5	Bicycle	T	A plain bicycle.	1	Ann	play	1	0	\N	0	f		1	\N
2	1	Robot	T	A plain robot.	1	Ann	hand	1	3	\N	0	f		1	\N
2	18	Trade	A	Do the trade.	1	Ann	discard	0	0	\N	0	f		1	\N
2	11	Mirror	T	A plain mirror.	1	Ann	hand	1	2	\N	0	f		1	\N
2	13	Swap	A	Do the swap.	1	Ann	hand	1	1	\N	0	f		1	\N
2	14	Steal	A	Do the steal.	1	Ann	hand	1	0	\N	0	f		1	\N
2	2	Cat	T	A plain cat.	1	Ann	play	2	0	\N	0	f		1	\N
2	3	Teapot	T	A plain teapot.	1	Ann	hand	2	0	\N	0	f		1	\N
2	16	Recycle	A	Do the recycle.	1	Ann	discard	0	1	\N	0	f		1	\N
2	17	Borrow	A	Do the borrow.	1	Ann	hand	2	2	\N	0	f		1	\N
2	6	Lantern	T	A plain lantern.	1	Ann	hand	2	1	\N	0	f		1	\N
2	15	Shuffle Up	A	Do the shuffle up.	1	Ann	hand	2	3	\N	0	f		1	\N
2	19	Beacon	T	Glows in the dark.	1	Ann	draw	0	0	\N	0	f		1	\N
2	20	Armageddon	A	Destroy all Things.	2	Bo	pending	0	0	\N	0	f		1	\N
3	1	Goblin	T	Small and mean.	5	Di	set	0	0	\N	0	f		1	\N
3	2	Troll	T	Big and slow.	5	Di	set	0	1	\N	0	f		1	\N
3	3	Elf	A	Quick: draw a card.	5	Di	set	0	2	\N	0	f		1	\N
3	4	Goblin	T	Small and mean.	5	Di	built	5	0	\N	5	f		1	1
3	5	Goblin	T	Small and mean.	5	Di	built	5	1	\N	5	f		1	1
3	6	Troll	T	Big and slow.	5	Di	built	5	2	\N	5	f		1	2
3	7	Troll	T	Big and slow.	5	Di	built	5	3	\N	5	f		1	2
3	8	Goblin	T	Small and mean.	5	Di	built	6	0	\N	6	f		1	1
3	9	Goblin	T	Small and mean.	5	Di	built	6	1	\N	6	f		1	1
3	10	Goblin	T	Small and mean.	5	Di	built	6	2	\N	6	f		1	1
3	11	Elf	A	Quick: draw a card.	5	Di	built	6	3	\N	6	f		1	3
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.events (room_id, seq, created_at, actor_account_id, actor_name, kind, forced, data, deltas) FROM stdin;
1	1	2026-12-01 22:25:57.056778+00	1	Ann	join	f	{"player":1,"name":"Ann"}	[["seats",[{"account_id":1,"name":"Ann","team":"","out":false}]],["set","host",1]]
1	2	2026-12-01 22:25:57.069813+00	1	Ann	load	f	{"card":1,"deck_version":1}	[["add",{"number":1,"name":"Dust","kind":"T","text":"Everywhere.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",1]]
2	1	2026-12-01 22:25:57.508894+00	1	Ann	join	f	{"player":1,"name":"Ann"}	[["seats",[{"account_id":1,"name":"Ann","team":"","out":false}]],["set","host",1]]
2	2	2026-12-01 22:25:57.539528+00	1	Ann	setting	f	{"name":"votetime","value":"0"}	[["setting","votetime",0]]
2	3	2026-12-01 22:25:57.604769+00	1	Ann	load	f	{"card":1,"deck_version":1}	[["add",{"number":1,"name":"Robot","kind":"T","text":"A plain robot.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",1]]
2	4	2026-12-01 22:25:57.609714+00	1	Ann	load	f	{"card":2,"deck_version":2}	[["add",{"number":2,"name":"Cat","kind":"T","text":"A plain cat.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",2]]
2	5	2026-12-01 22:25:57.617925+00	1	Ann	load	f	{"card":3,"deck_version":3}	[["add",{"number":3,"name":"Teapot","kind":"T","text":"A plain teapot.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",3]]
2	6	2026-12-01 22:25:57.625834+00	1	Ann	load	f	{"card":4,"deck_version":4}	[["add",{"number":4,"name":"Umbrella","kind":"T","text":"A plain umbrella.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",4]]
2	7	2026-12-01 22:25:57.632057+00	1	Ann	load	f	{"card":5,"deck_version":5}	[["add",{"number":5,"name":"Bicycle","kind":"T","text":"A plain bicycle.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",5]]
2	8	2026-12-01 22:25:57.637712+00	1	Ann	load	f	{"card":6,"deck_version":6}	[["add",{"number":6,"name":"Lantern","kind":"T","text":"A plain lantern.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",6]]
2	9	2026-12-01 22:25:57.645911+00	1	Ann	load	f	{"card":7,"deck_version":7}	[["add",{"number":7,"name":"Anvil","kind":"T","text":"A plain anvil.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",7]]
2	10	2026-12-01 22:25:57.654107+00	1	Ann	load	f	{"card":8,"deck_version":8}	[["add",{"number":8,"name":"Kite","kind":"T","text":"A plain kite.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",8]]
2	11	2026-12-01 22:25:57.660232+00	1	Ann	load	f	{"card":9,"deck_version":9}	[["add",{"number":9,"name":"Compass","kind":"T","text":"A plain compass.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",9]]
2	12	2026-12-01 22:25:57.665087+00	1	Ann	load	f	{"card":10,"deck_version":10}	[["add",{"number":10,"name":"Harp","kind":"T","text":"A plain harp.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",10]]
2	13	2026-12-01 22:25:57.669203+00	1	Ann	load	f	{"card":11,"deck_version":11}	[["add",{"number":11,"name":"Mirror","kind":"T","text":"A plain mirror.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",11]]
2	14	2026-12-01 22:25:57.675363+00	1	Ann	load	f	{"card":12,"deck_version":12}	[["add",{"number":12,"name":"Ladder","kind":"T","text":"A plain ladder.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",12]]
2	15	2026-12-01 22:25:57.679122+00	1	Ann	load	f	{"card":13,"deck_version":13}	[["add",{"number":13,"name":"Swap","kind":"A","text":"Do the swap.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",13]]
2	16	2026-12-01 22:25:57.682794+00	1	Ann	load	f	{"card":14,"deck_version":14}	[["add",{"number":14,"name":"Steal","kind":"A","text":"Do the steal.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",14]]
2	17	2026-12-01 22:25:57.686375+00	1	Ann	load	f	{"card":15,"deck_version":15}	[["add",{"number":15,"name":"Shuffle Up","kind":"A","text":"Do the shuffle up.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",15]]
2	18	2026-12-01 22:25:57.691844+00	1	Ann	load	f	{"card":16,"deck_version":16}	[["add",{"number":16,"name":"Recycle","kind":"A","text":"Do the recycle.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",16]]
2	19	2026-12-01 22:25:57.700513+00	1	Ann	load	f	{"card":17,"deck_version":17}	[["add",{"number":17,"name":"Borrow","kind":"A","text":"Do the borrow.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",17]]
2	20	2026-12-01 22:25:57.705168+00	1	Ann	load	f	{"card":18,"deck_version":18}	[["add",{"number":18,"name":"Trade","kind":"A","text":"Do the trade.","author":1,"author_name":"Ann","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",18]]
2	21	2026-12-01 22:25:57.711059+00	2	Bo	join	f	{"player":2,"name":"Bo"}	[["seats",[{"account_id":1,"name":"Ann","team":"","out":false},{"account_id":2,"name":"Bo","team":"","out":false}]]]
2	22	2026-12-01 22:25:57.717881+00	3	Cy	join	f	{"player":3,"name":"Cy"}	[["seats",[{"account_id":1,"name":"Ann","team":"","out":false},{"account_id":2,"name":"Bo","team":"","out":false},{"account_id":3,"name":"Cy","team":"","out":false}]]]
3	11	2026-12-01 22:25:58.373636+00	6	Fay	build	f	{"card":1,"added":3,"size":3}	[["add",{"number":8,"name":"Goblin","kind":"T","text":"Small and mean.","author":5,"author_name":"Di","zone":"built","owner":6,"attached_to":null,"deck_owner":6,"is_rule":false,"colour":"","version":1,"copy_of":1}],["add",{"number":9,"name":"Goblin","kind":"T","text":"Small and mean.","author":5,"author_name":"Di","zone":"built","owner":6,"attached_to":null,"deck_owner":6,"is_rule":false,"colour":"","version":1,"copy_of":1}],["add",{"number":10,"name":"Goblin","kind":"T","text":"Small and mean.","author":5,"author_name":"Di","zone":"built","owner":6,"attached_to":null,"deck_owner":6,"is_rule":false,"colour":"","version":1,"copy_of":1}],["built-against",6,3]]
4	1	2026-12-01 22:25:58.523265+00	7	Gus	join	f	{"player":7,"name":"Gus"}	[["seats",[{"account_id":7,"name":"Gus","team":"","out":false,"absent":false,"bot":"","lives":0,"resting":false,"left":false}]],["set","host",7]]
2	23	2026-12-01 22:25:57.723135+00	1	Ann	start	f	{"first":3,"handsize":5,"players":[1,2,3],"short":false}	[["seats",[{"account_id":1,"name":"Ann","team":"","out":false},{"account_id":2,"name":"Bo","team":"","out":false},{"account_id":3,"name":"Cy","team":"","out":false}]],["set","phase","playing"],["set","result",""],["move",8,"draw",0,-1],["move",9,"draw",0,-1],["move",16,"draw",0,-1],["move",4,"draw",0,-1],["move",17,"draw",0,-1],["move",7,"draw",0,-1],["move",14,"draw",0,-1],["move",2,"draw",0,-1],["move",5,"draw",0,-1],["move",1,"draw",0,-1],["move",13,"draw",0,-1],["move",10,"draw",0,-1],["move",12,"draw",0,-1],["move",3,"draw",0,-1],["move",15,"draw",0,-1],["move",18,"draw",0,-1],["move",11,"draw",0,-1],["move",6,"draw",0,-1],["order","draw",0,[15,1,9,4,17,11,7,6,13,12,16,14,10,3,5,8,2,18]],["move",18,"hand",1,-1],["move",2,"hand",2,-1],["move",8,"hand",3,-1],["move",5,"hand",1,-1],["move",3,"hand",2,-1],["move",10,"hand",3,-1],["move",14,"hand",1,-1],["move",16,"hand",2,-1],["move",12,"hand",3,-1],["move",13,"hand",1,-1],["move",6,"hand",2,-1],["move",7,"hand",3,-1],["move",11,"hand",1,-1],["move",17,"hand",2,-1],["move",4,"hand",3,-1],["turn",{"player":3,"number":1,"drawn":0,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	24	2026-12-01 22:25:57.732463+00	3	Cy	draw	f	{"card":9,"visible":false}	[["move",9,"hand",3,-1],["turn",{"player":3,"number":1,"drawn":1,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	25	2026-12-01 22:25:57.740486+00	3	Cy	play	f	{"card":8,"onto":null}	[["move",8,"play",3,-1],["turn",{"player":3,"number":1,"drawn":1,"things":1,"actions":0,"gives":0,"discarded":0}]]
2	26	2026-12-01 22:25:57.745723+00	3	Cy	endturn	f	{"next":1}	[["turn",{"player":1,"number":2,"drawn":0,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	27	2026-12-01 22:25:57.758239+00	1	Ann	draw	f	{"card":1,"visible":false}	[["move",1,"hand",1,-1],["turn",{"player":1,"number":2,"drawn":1,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	28	2026-12-01 22:25:57.774509+00	1	Ann	play	f	{"card":5,"onto":null}	[["move",5,"play",1,-1],["turn",{"player":1,"number":2,"drawn":1,"things":1,"actions":0,"gives":0,"discarded":0}]]
2	29	2026-12-01 22:25:57.790048+00	1	Ann	play	f	{"card":18,"onto":null}	[["move",18,"discard",0,-1],["turn",{"player":1,"number":2,"drawn":1,"things":1,"actions":1,"gives":0,"discarded":0}]]
2	30	2026-12-01 22:25:57.797658+00	1	Ann	endturn	f	{"next":2}	[["turn",{"player":2,"number":3,"drawn":0,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	31	2026-12-01 22:25:57.806328+00	2	Bo	draw	f	{"card":15,"visible":false}	[["move",15,"hand",2,-1],["turn",{"player":2,"number":3,"drawn":1,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	32	2026-12-01 22:25:57.814031+00	2	Bo	play	f	{"card":2,"onto":null}	[["move",2,"play",2,-1],["turn",{"player":2,"number":3,"drawn":1,"things":1,"actions":0,"gives":0,"discarded":0}]]
2	33	2026-12-01 22:25:57.817982+00	2	Bo	play	f	{"card":16,"onto":null}	[["move",16,"discard",0,-1],["turn",{"player":2,"number":3,"drawn":1,"things":1,"actions":1,"gives":0,"discarded":0}]]
2	34	2026-12-01 22:25:57.858469+00	2	Bo	endturn	f	{"next":3}	[["turn",{"player":3,"number":4,"drawn":0,"things":0,"actions":0,"gives":0,"discarded":0}]]
2	35	2026-12-01 22:25:57.870169+00	1	Ann	newcard	f	{"card":19}	[["add",{"number":19,"name":"Beacon","kind":"T","text":"Glows in the dark.","author":1,"author_name":"Ann","zone":"pending","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["propose",{"id":1,"kind":"card","subject":19,"proposer":1,"proposer_name":"Ann","face":null,"bundle":null,"votes":[[1,"approve"]]}]]
2	36	2026-12-01 22:25:57.88508+00	2	Bo	vote	f	{"card":19,"choice":"approve","cards":[19]}	[["vote",1,2,"approve"]]
2	37	2026-12-01 22:25:57.896601+00	3	Cy	vote	f	{"card":19,"choice":"approve","cards":[19],"deck_version":19,"decided":[{"proposals":[[19,"card"]],"accepted":true}]}	[["vote",1,3,"approve"],["move",19,"draw",0,0],["set","deck_version",19],["decide",1,"accepted"]]
2	38	2026-12-01 22:25:57.915137+00	2	Bo	newcard	f	{"card":20}	[["add",{"number":20,"name":"Armageddon","kind":"A","text":"Destroy all Things.","author":2,"author_name":"Bo","zone":"pending","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["propose",{"id":2,"kind":"card","subject":20,"proposer":2,"proposer_name":"Bo","face":null,"bundle":null,"votes":[[2,"approve"]]}]]
2	39	2026-12-01 22:25:57.937102+00	1	Ann	vote	f	{"card":20,"choice":"approve","cards":[20]}	[["vote",2,1,"approve"]]
3	1	2026-12-01 22:25:58.268755+00	5	Di	join	f	{"player":5,"name":"Di"}	[["seats",[{"account_id":5,"name":"Di","team":"","out":false}]],["set","host",5]]
3	2	2026-12-01 22:25:58.280088+00	5	Di	load	f	{"card":1,"deck_version":1}	[["add",{"number":1,"name":"Goblin","kind":"T","text":"Small and mean.","author":5,"author_name":"Di","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",1]]
3	3	2026-12-01 22:25:58.287061+00	5	Di	load	f	{"card":2,"deck_version":2}	[["add",{"number":2,"name":"Troll","kind":"T","text":"Big and slow.","author":5,"author_name":"Di","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",2]]
3	4	2026-12-01 22:25:58.300389+00	5	Di	load	f	{"card":3,"deck_version":3}	[["add",{"number":3,"name":"Elf","kind":"A","text":"Quick: draw a card.","author":5,"author_name":"Di","zone":"draw","owner":0,"attached_to":null,"deck_owner":0,"is_rule":false,"colour":"","version":1}],["set","deck_version",3]]
3	5	2026-12-01 22:25:58.314817+00	6	Fay	join	f	{"player":6,"name":"Fay"}	[["seats",[{"account_id":5,"name":"Di","team":"","out":false},{"account_id":6,"name":"Fay","team":"","out":false}]]]
3	6	2026-12-01 22:25:58.318653+00	5	Di	setting	f	{"name":"decksize","value":"4"}	[["setting","decksize",4]]
3	7	2026-12-01 22:25:58.32577+00	5	Di	setting	f	{"name":"handsize","value":"2"}	[["setting","handsize",2]]
3	8	2026-12-01 22:25:58.341747+00	5	Di	setting	f	{"name":"ccg","value":"on"}	[["move",1,"set",0,-1],["move",2,"set",0,-1],["move",3,"set",0,-1],["setting","ccg",true]]
3	9	2026-12-01 22:25:58.349861+00	5	Di	build	f	{"card":1,"added":2,"size":2}	[["add",{"number":4,"name":"Goblin","kind":"T","text":"Small and mean.","author":5,"author_name":"Di","zone":"built","owner":5,"attached_to":null,"deck_owner":5,"is_rule":false,"colour":"","version":1,"copy_of":1}],["add",{"number":5,"name":"Goblin","kind":"T","text":"Small and mean.","author":5,"author_name":"Di","zone":"built","owner":5,"attached_to":null,"deck_owner":5,"is_rule":false,"colour":"","version":1,"copy_of":1}],["built-against",5,3]]
3	10	2026-12-01 22:25:58.356898+00	5	Di	build	f	{"card":2,"added":2,"size":4}	[["add",{"number":6,"name":"Troll","kind":"T","text":"Big and slow.","author":5,"author_name":"Di","zone":"built","owner":5,"attached_to":null,"deck_owner":5,"is_rule":false,"colour":"","version":1,"copy_of":2}],["add",{"number":7,"name":"Troll","kind":"T","text":"Big and slow.","author":5,"author_name":"Di","zone":"built","owner":5,"attached_to":null,"deck_owner":5,"is_rule":false,"colour":"","version":1,"copy_of":2}],["built-against",5,3]]
3	12	2026-12-01 22:25:58.381705+00	6	Fay	build	f	{"card":3,"added":1,"size":4}	[["add",{"number":11,"name":"Elf","kind":"A","text":"Quick: draw a card.","author":5,"author_name":"Di","zone":"built","owner":6,"attached_to":null,"deck_owner":6,"is_rule":false,"colour":"","version":1,"copy_of":3}],["built-against",6,3]]
4	4	2026-12-01 22:25:58.5364+00	7	Gus	set	f	{"name":"botdelay","value":0.0}	[["setting","botdelay",0.0]]
4	2	2026-12-01 22:25:58.527354+00	7	Gus	addbot	f	{"player":-1,"name":"Olga","level":"normal"}	[["set","next_bot",-2],["seats",[{"account_id":7,"name":"Gus","team":"","out":false,"absent":false,"bot":"","lives":0,"resting":false,"left":false},{"account_id":-1,"name":"Olga","team":"","out":false,"absent":false,"bot":"normal","lives":0,"resting":false,"left":false}]]]
4	5	2026-12-01 22:25:58.541228+00	7	Gus	set	f	{"name":"lives","value":9}	[["setting","lives",9]]
4	9	2026-12-01 22:25:58.550473+00	-2	Sven	keep	f	{"player":-2}	[["set","step",2],["log",{"kind":"keep","actor":-2,"player":-2}]]
4	10	2026-12-01 22:25:58.550473+00	7	Gus	turn	f	{"player":7,"seconds":600}	[["set","turn",7]]
4	15	2026-12-01 22:26:01.569758+00	-2	Sven	deal	f	{"deal":2,"dealer":-2,"order":[7,-1,-2],"fools":[],"resting":[],"turn":7,"seconds":600,"private":[[7,{"card":"vii"}],[-1,{"card":"iv"}],[-2,{"card":"0"}]]}	[["set","step",5],["set","deal",2],["set","dealer",-2],["set","order",[7,-1,-2]],["set","stock",["x","cat","owl","x","vi","v","dragoon","i","i","horse","fool","ix","viii","iii","viii","cat","vii","v","xii","iv","xi","cuckoo","pot","house","fool","vi","iii","xii","cuckoo","owl","house","horse","ix","ii","xi","ii","0","pot","dragoon"]],["set","drawn",0],["set","swaps",[]],["set","revealed",[]],["set","history",[]],["set","turn",7],["hands",[[7,"vii"],[-1,"iv"],[-2,"0"]]],["log",{"kind":"deal","actor":-2,"deal":2,"dealer":-2,"order":[7,-1,-2],"fools":[],"resting":[],"turn":7,"seconds":600,"private":[[7,{"card":"vii"}],[-1,{"card":"iv"}],[-2,{"card":"0"}]]}]]
5	3	2026-12-01 22:26:01.853574+00	8	Hana	addbot	f	{"player":-2,"name":"Tristan","level":"normal"}	[["set","next_bot",-3],["seats",[{"account_id":8,"name":"Hana","team":"","out":false,"absent":false,"bot":""},{"account_id":-1,"name":"Ysolde","team":"","out":false,"absent":false,"bot":"easy"},{"account_id":-2,"name":"Tristan","team":"","out":false,"absent":false,"bot":"normal"}]]]
5	6	2026-12-01 22:26:01.864518+00	8	Hana	start	f	{"players":[8,-1,-2],"order":[-2,-1,8],"neutral":false}	[["set","step",1],["set","result",""],["set","round",0],["set","order",[-2,-1,8]],["set","players",[{"id":8,"screen":[0,1,1,1,3,3,3,4,4,5,5,6,7],"front":[],"gems":{"blue":0,"green":0,"yellow":0,"red":0,"black":0},"points":0,"cards":[],"played":0,"favour":[]},{"id":-1,"screen":[0,1,1,1,3,3,3,4,4,5,5,6,7],"front":[],"gems":{"blue":0,"green":0,"yellow":0,"red":0,"black":0},"points":0,"cards":[],"played":0,"favour":[]},{"id":-2,"screen":[0,1,1,1,3,3,3,4,4,5,5,6,7],"front":[],"gems":{"blue":0,"green":0,"yellow":0,"red":0,"black":0},"points":0,"cards":[],"played":0,"favour":[]}]],["set","prices",{"blue":3,"green":3,"yellow":3,"red":3}],["set","gem_deck",[4,9,13,21,15,17,5,23,19,8,10,14,18,7,20,0,6,1,11,2,12,22,16,3]],["set","corners",[{"up":null,"stack":["intriguer","banker","mercenary","treasure"]},{"up":null,"stack":["prince","conjurer","alchemist","treasure"]},{"up":null,"stack":["queen","jeweller","spy","treasure"]},{"up":null,"stack":["jeweller","merchant","magician","treasure"]}]],["set","discard",["banker","bishop","captain","herald","king","mercenary","merchant","spy"]],["set","awaiting",[]],["set","tasks",[]],["set","queued",[]],["set","placed",[]],["set","phase","playing"]]
5	7	2026-12-01 22:26:01.864518+00	0	someone	round	f	{"round":1,"laid":[3,16,22,12],"market_card":2,"market":["blue","red",null,null],"cards":["treasure","treasure","treasure","treasure"]}	[["player",8,{"screen":[0,1,1,1,3,3,3,4,4,5,5,6,7],"front":[]}],["player",-1,{"screen":[0,1,1,1,3,3,3,4,4,5,5,6,7],"front":[]}],["player",-2,{"screen":[0,1,1,1,3,3,3,4,4,5,5,6,7],"front":[]}],["set","round",1],["set","gem_deck",[4,9,13,21,15,17,5,23,19,8,10,14,18,7,20,0,6,1,11]],["set","laid",[3,16,22,12]],["set","market_card",2],["set","quadrant_gems",[["blue","green","yellow"],["yellow","green","red"],["red","green","yellow"],["yellow","white","blue"]]],["set","market",["blue","red",null,null]],["set","corners",[{"up":"treasure","stack":["intriguer","banker","mercenary"]},{"up":"treasure","stack":["prince","conjurer","alchemist"]},{"up":"treasure","stack":["queen","jeweller","spy"]},{"up":"treasure","stack":["jeweller","merchant","magician"]}]],["set","placed",[]],["set","stage","bid"],["set","window",""],["set","turn",0],["set","turn_part",""],["set","effects",[]]]
5	10	2026-12-01 22:26:01.918076+00	-1	Ysolde	bid	f	{"player":-1,"private":[[-1,{"brokers":[4,7]}]]}	[["set","step",4],["player",-1,{"screen":[0,1,1,1,3,3,3,4,5,5,6],"front":[4,7]}]]
5	11	2026-12-01 22:26:01.918076+00	0	someone	order	f	{"bids":[[-2,[3,3],6],[-1,[4,7],11],[8,[3,5],8]],"order":[-1,8,-2],"turn":-1}	[["set","order",[-1,8,-2]],["set","stage","place"],["set","turn",-1],["set","turn_part","pair"],["set","window","start_of_placement"]]
5	16	2026-12-01 22:26:02.074084+00	-2	Tristan	place	f	{"player":-2,"up":{"space":["city",1,"palace"],"value":4},"down":{"space":["city",3,"palace"]},"private":[[-2,{"down_value":5}]]}	[["set","step",7],["player",-2,{"screen":[0,1,1,1,3,4,5,6,7],"points":0}],["set","placed",[{"player":-1,"value":4,"up":true,"space":["city",0,"palace"]},{"player":-1,"value":3,"up":false,"space":["market",0,"green"]},{"player":8,"value":0,"up":true,"space":["city",3,"palace"]},{"player":8,"value":4,"up":false,"space":["market",1,"green"]},{"player":-2,"value":4,"up":true,"space":["city",1,"palace"]},{"player":-2,"value":5,"up":false,"space":["city",3,"palace"]}]],["set","window","after_pair"]]
5	17	2026-12-01 22:26:02.074084+00	-1	Ysolde	turn	f	{"player":-1}	[["set","turn",-1],["set","turn_part","pair"]]
4	3	2026-12-01 22:25:58.531961+00	7	Gus	addbot	f	{"player":-2,"name":"Sven","level":"strong"}	[["set","next_bot",-3],["seats",[{"account_id":7,"name":"Gus","team":"","out":false,"absent":false,"bot":"","lives":0,"resting":false,"left":false},{"account_id":-1,"name":"Olga","team":"","out":false,"absent":false,"bot":"normal","lives":0,"resting":false,"left":false},{"account_id":-2,"name":"Sven","team":"","out":false,"absent":false,"bot":"strong","lives":0,"resting":false,"left":false}]]]
4	6	2026-12-01 22:25:58.544424+00	7	Gus	set	f	{"name":"turntime","value":600}	[["setting","turntime",600]]
4	11	2026-12-01 22:25:58.558213+00	7	Gus	keep	f	{"player":7}	[["set","step",3],["log",{"kind":"keep","actor":7,"player":7}]]
4	12	2026-12-01 22:25:58.558213+00	-1	Olga	turn	f	{"player":-1,"seconds":null}	[["set","turn",-1]]
5	1	2026-12-01 22:26:01.804594+00	8	Hana	join	f	{"player":8,"name":"Hana"}	[["seats",[{"account_id":8,"name":"Hana","team":"","out":false,"absent":false,"bot":""}]],["set","host",8]]
5	4	2026-12-01 22:26:01.858156+00	8	Hana	set	f	{"name":"botdelay","value":0.0}	[["setting","botdelay",0.0]]
5	8	2026-12-01 22:26:01.8807+00	-2	Tristan	bid	f	{"player":-2,"private":[[-2,{"brokers":[3,3]}]]}	[["set","step",2],["player",-2,{"screen":[0,1,1,1,3,4,4,5,5,6,7],"front":[3,3]}]]
5	12	2026-12-01 22:26:01.933951+00	-1	Ysolde	place	f	{"player":-1,"up":{"space":["city",0,"palace"],"value":4},"down":{"space":["market",0,"green"]},"private":[[-1,{"down_value":3}]]}	[["set","step",5],["player",-1,{"screen":[0,1,1,1,3,3,5,5,6],"points":1}],["set","placed",[{"player":-1,"value":4,"up":true,"space":["city",0,"palace"]},{"player":-1,"value":3,"up":false,"space":["market",0,"green"]}]],["set","window","after_pair"]]
5	13	2026-12-01 22:26:01.933951+00	8	Hana	turn	f	{"player":8}	[["set","turn",8],["set","turn_part","pair"]]
5	18	2026-12-01 22:26:02.081857+00	-1	Ysolde	place	f	{"player":-1,"up":{"space":["market",1,"yellow"],"value":1},"down":{"space":["city",0,"commercial"]},"private":[[-1,{"down_value":3}]]}	[["set","step",8],["player",-1,{"screen":[0,1,1,3,5,5,6],"points":2}],["set","placed",[{"player":-1,"value":4,"up":true,"space":["city",0,"palace"]},{"player":-1,"value":3,"up":false,"space":["market",0,"green"]},{"player":8,"value":0,"up":true,"space":["city",3,"palace"]},{"player":8,"value":4,"up":false,"space":["market",1,"green"]},{"player":-2,"value":4,"up":true,"space":["city",1,"palace"]},{"player":-2,"value":5,"up":false,"space":["city",3,"palace"]},{"player":-1,"value":1,"up":true,"space":["market",1,"yellow"]},{"player":-1,"value":3,"up":false,"space":["city",0,"commercial"]}]],["set","window","after_pair"]]
5	19	2026-12-01 22:26:02.081857+00	8	Hana	turn	f	{"player":8}	[["set","turn",8],["set","turn_part","pair"]]
4	7	2026-12-01 22:25:58.547441+00	7	Gus	start	f	{"players":[7,-1,-2],"lives":9}	[["set","step",1],["seat",7,{"lives":9,"out":false,"resting":false,"left":false}],["seat",-1,{"lives":9,"out":false,"resting":false,"left":false}],["seat",-2,{"lives":9,"out":false,"resting":false,"left":false}],["set","result",""],["set","deal",0],["set","dealer",0],["set","phase","playing"]]
4	8	2026-12-01 22:25:58.547441+00	-1	Olga	deal	f	{"deal":1,"dealer":-1,"order":[-2,7,-1],"fools":[],"resting":[],"turn":-2,"seconds":null,"private":[[-2,{"card":"cuckoo"}],[7,{"card":"xii"}],[-1,{"card":"v"}]]}	[["set","deal",1],["set","dealer",-1],["set","order",[-2,7,-1]],["set","stock",["fool","house","iii","iii","ix","pot","xi","vii","horse","x","0","v","vi","ii","viii","dragoon","0","xi","ix","pot","vii","ii","cuckoo","cat","iv","cat","owl","i","horse","viii","vi","i","x","iv","house","dragoon","owl","fool","xii"]],["set","drawn",0],["set","swaps",[]],["set","revealed",[]],["set","history",[]],["set","turn",-2],["hands",[[-2,"cuckoo"],[7,"xii"],[-1,"v"]]],["log",{"kind":"deal","actor":-1,"deal":1,"dealer":-1,"order":[-2,7,-1],"fools":[],"resting":[],"turn":-2,"seconds":null,"private":[[-2,{"card":"cuckoo"}],[7,{"card":"xii"}],[-1,{"card":"v"}]]}]]
4	13	2026-12-01 22:25:58.561873+00	-1	Olga	keep	f	{"player":-1}	[["set","step",4],["log",{"kind":"keep","actor":-1,"player":-1}]]
4	14	2026-12-01 22:25:58.561873+00	0	someone	settle	f	{"deal":1,"cards":[[-2,"cuckoo"],[7,"xii"],[-1,"v"]],"contestants":[-2,7,-1],"how":"lowest","losers":[-1],"lives":[[-1,8]]}	[["log",{"kind":"settle","actor":0,"deal":1,"cards":[[-2,"cuckoo"],[7,"xii"],[-1,"v"]],"contestants":[-2,7,-1],"how":"lowest","losers":[-1],"lives":[[-1,8]]}],["set","turn",0],["seat",-1,{"lives":8}]]
5	2	2026-12-01 22:26:01.848445+00	8	Hana	addbot	f	{"player":-1,"name":"Ysolde","level":"easy"}	[["set","next_bot",-2],["seats",[{"account_id":8,"name":"Hana","team":"","out":false,"absent":false,"bot":""},{"account_id":-1,"name":"Ysolde","team":"","out":false,"absent":false,"bot":"easy"}]]]
5	5	2026-12-01 22:26:01.86119+00	8	Hana	set	f	{"name":"turntime","value":600}	[["setting","turntime",600]]
5	9	2026-12-01 22:26:01.893686+00	8	Hana	bid	f	{"player":8,"private":[[8,{"brokers":[3,5]}]]}	[["set","step",3],["player",8,{"screen":[0,1,1,1,3,3,4,4,5,6,7],"front":[3,5]}]]
5	14	2026-12-01 22:26:02.063343+00	8	Hana	place	f	{"player":8,"up":{"space":["city",3,"palace"],"value":0},"down":{"space":["market",1,"green"]},"private":[[8,{"down_value":4}]]}	[["set","step",6],["player",8,{"screen":[1,1,1,3,3,4,5,6,7],"points":1}],["set","placed",[{"player":-1,"value":4,"up":true,"space":["city",0,"palace"]},{"player":-1,"value":3,"up":false,"space":["market",0,"green"]},{"player":8,"value":0,"up":true,"space":["city",3,"palace"]},{"player":8,"value":4,"up":false,"space":["market",1,"green"]}]],["set","window","after_pair"]]
5	15	2026-12-01 22:26:02.063343+00	-2	Tristan	turn	f	{"player":-2}	[["set","turn",-2],["set","turn_part","pair"]]
\.


--
-- Data for Name: game_results; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.game_results (id, room_id, seq, finished_at, result, players, outcome, winners, deck_version) FROM stdin;
\.


--
-- Data for Name: player_decks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.player_decks (id, owner_account_id, name, name_key, room_name, set_version, card_count, saved_at, data) FROM stdin;
1	5	Rush	rush	Arena	3	4	2026-12-01 22:25:58.365311+00	{"cards": [["Goblin", 2], ["Troll", 2]]}
2	6	Swarm	swarm	Arena	3	4	2026-12-01 22:25:58.385241+00	{"cards": [["Goblin", 3], ["Elf", 1]]}
\.


--
-- Data for Name: proposals; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.proposals (room_id, id, kind, subject, proposer_account_id, proposer_name, face, bundle, status, created_at, created_seq, decided_at, decided_seq) FROM stdin;
2	1	card	19	1	Ann	null	\N	accepted	2026-12-01 22:25:57.870169+00	35	2026-12-01 22:25:57.896601+00	37
2	2	card	20	2	Bo	null	\N	pending	2026-12-01 22:25:57.915137+00	38	\N	\N
\.


--
-- Data for Name: room_talk; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.room_talk (id, room_id, created_at, text) FROM stdin;
\.


--
-- Data for Name: rooms; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.rooms (id, name, name_key, game, password_hash, phase, host_account_id, settings, seq, created_at, digest, created_by_account_id, used_at, archived_at, state) FROM stdin;
2	Workshop	workshop	dvorak	\N	playing	1	{"handsize": 5, "handlimit": 5, "turns": true, "draws": 1, "plays": 1, "actions": 1, "reshuffle": true, "teams": false, "multideck": false, "vote": "unanimous", "halt": true, "ccg": false, "decksize": 20, "maxcopies": 0, "votetime": 0}	39	2026-12-01 22:25:57.497162+00	8c135b0a44dd350e62aef99d4a106643e23d69c2e42fca9fe57afd8c0509bb2c	1	2026-12-01 22:25:57.937102+00	\N	{"turn": {"player": 3, "number": 4, "drawn": 0, "things": 0, "actions": 0, "gives": 0, "discarded": 0}, "result": "", "next_number": 21, "next_proposal": 3, "deck_version": 19, "built_against": [], "face_down": [], "seen": {}, "vote_opened": [], "opened_with": {"halt": true, "votetime": 300}}
1	Attic	attic~1	dvorak	\N	waiting	1	{"handsize": 5, "handlimit": 5, "turns": true, "draws": 1, "plays": 1, "actions": 1, "reshuffle": true, "teams": false, "multideck": false, "vote": "unanimous", "halt": true, "ccg": false, "decksize": 20, "maxcopies": 0, "votetime": 300}	2	2026-12-01 22:25:57.038163+00	16044ed54f6ada27a272794baa971f6b3e247367a6465af1acf1ca0300ce1458	1	2026-12-01 22:25:57.069813+00	2026-12-01 22:25:57.081681+00	{"turn": {"player": 0, "number": 0, "drawn": 0, "things": 0, "actions": 0, "gives": 0, "discarded": 0}, "result": "", "next_number": 2, "next_proposal": 1, "deck_version": 1, "built_against": [], "face_down": [], "seen": {}, "vote_opened": [], "opened_with": {"halt": true, "votetime": 300}}
4	Fjord	fjord	gnav	\N	playing	7	{"lives": 9, "turntime": 600, "botdelay": 0.0}	15	2026-12-01 22:25:58.513267+00	de49c03e282a6141dfe2e2920e14dce47558fcbd16c495ffca716bc7abbaa2d5	7	2026-12-01 22:26:01.569758+00	\N	{"result": "", "deal": 2, "dealer": -2, "turn": 7, "order": [7, -1, -2], "stock": ["x", "cat", "owl", "x", "vi", "v", "dragoon", "i", "i", "horse", "fool", "ix", "viii", "iii", "viii", "cat", "vii", "v", "xii", "iv", "xi", "cuckoo", "pot", "house", "fool", "vi", "iii", "xii", "cuckoo", "owl", "house", "horse", "ix", "ii", "xi", "ii", "0", "pot", "dragoon"], "drawn": 0, "swaps": [], "revealed": [], "history": [{"kind": "deal", "actor": -2, "deal": 2, "dealer": -2, "order": [7, -1, -2], "fools": [], "resting": [], "turn": 7, "seconds": 600, "private": [[7, {"card": "vii"}], [-1, {"card": "iv"}], [-2, {"card": "0"}]]}], "step": 5, "next_bot": -3, "hands": [[7, "vii"], [-1, "iv"], [-2, "0"]], "seat_state": [[7, 9, false, false], [-1, 8, false, false], [-2, 9, false, false]]}
3	Arena	arena	dvorak	\N	waiting	5	{"handsize": 2, "handlimit": 5, "turns": true, "draws": 1, "plays": 1, "actions": 1, "reshuffle": true, "teams": false, "multideck": false, "vote": "unanimous", "halt": true, "ccg": true, "decksize": 4, "maxcopies": 0, "votetime": 300}	12	2026-12-01 22:25:58.246856+00	c194799e762fc838661b8e43b2be7119ff83ead5e7b9b72e5fe1db4111cc0934	5	2026-12-01 22:25:58.381705+00	\N	{"turn": {"player": 0, "number": 0, "drawn": 0, "things": 0, "actions": 0, "gives": 0, "discarded": 0}, "result": "", "next_number": 12, "next_proposal": 1, "deck_version": 3, "built_against": [[5, 3], [6, 3]], "face_down": [], "seen": {}, "vote_opened": [], "opened_with": {"halt": true, "votetime": 300}}
5	Isle	isle	ys	\N	playing	8	{"favour": 0, "quadrants": 4, "turntime": 600, "botdelay": 0.0}	19	2026-12-01 22:26:01.79668+00	b24e7a14021ad3b15049cdbe4d995432be0c75db5cded8096edf3a52bb3336f6	8	2026-12-01 22:26:02.081857+00	\N	{"result": "", "step": 8, "next_bot": -3, "round": 1, "stage": "place", "window": "after_pair", "order": [-1, 8, -2], "turn": 8, "turn_part": "pair", "players": [{"id": 8, "screen": [1, 1, 1, 3, 3, 4, 5, 6, 7], "front": [3, 5], "gems": {"blue": 0, "green": 0, "yellow": 0, "red": 0, "black": 0}, "points": 1, "cards": [], "played": 0, "favour": []}, {"id": -1, "screen": [0, 1, 1, 3, 5, 5, 6], "front": [4, 7], "gems": {"blue": 0, "green": 0, "yellow": 0, "red": 0, "black": 0}, "points": 2, "cards": [], "played": 0, "favour": []}, {"id": -2, "screen": [0, 1, 1, 1, 3, 4, 5, 6, 7], "front": [3, 3], "gems": {"blue": 0, "green": 0, "yellow": 0, "red": 0, "black": 0}, "points": 0, "cards": [], "played": 0, "favour": []}], "prices": {"blue": 3, "green": 3, "yellow": 3, "red": 3}, "gem_deck": [4, 9, 13, 21, 15, 17, 5, 23, 19, 8, 10, 14, 18, 7, 20, 0, 6, 1, 11], "laid": [3, 16, 22, 12], "market_card": 2, "quadrant_gems": [["blue", "green", "yellow"], ["yellow", "green", "red"], ["red", "green", "yellow"], ["yellow", "white", "blue"]], "market": ["blue", "red", null, null], "placed": [{"player": -1, "value": 4, "up": true, "space": ["city", 0, "palace"]}, {"player": -1, "value": 3, "up": false, "space": ["market", 0, "green"]}, {"player": 8, "value": 0, "up": true, "space": ["city", 3, "palace"]}, {"player": 8, "value": 4, "up": false, "space": ["market", 1, "green"]}, {"player": -2, "value": 4, "up": true, "space": ["city", 1, "palace"]}, {"player": -2, "value": 5, "up": false, "space": ["city", 3, "palace"]}, {"player": -1, "value": 1, "up": true, "space": ["market", 1, "yellow"]}, {"player": -1, "value": 3, "up": false, "space": ["city", 0, "commercial"]}], "corners": [{"up": "treasure", "stack": ["intriguer", "banker", "mercenary"]}, {"up": "treasure", "stack": ["prince", "conjurer", "alchemist"]}, {"up": "treasure", "stack": ["queen", "jeweller", "spy"]}, {"up": "treasure", "stack": ["jeweller", "merchant", "magician"]}], "discard": ["banker", "bishop", "captain", "herald", "king", "mercenary", "merchant", "spy"], "awaiting": [], "tasks": [], "queued": [], "effects": []}
\.


--
-- Data for Name: saved_decks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.saved_decks (id, name, name_key, owner_account_id, card_count, saved_at, data, size_bytes) FROM stdin;
1	Arena Set	arena set	5	3	2026-12-01 22:25:58.331678+00	{"format": 1, "cards": [{"number": 1, "name": "Goblin", "kind": "T", "text": "Small and mean.", "author": 5, "author_name": "Di", "zone": "draw", "owner": 0, "attached_to": null, "deck_owner": 0, "is_rule": false, "colour": "", "version": 1}, {"number": 2, "name": "Troll", "kind": "T", "text": "Big and slow.", "author": 5, "author_name": "Di", "zone": "draw", "owner": 0, "attached_to": null, "deck_owner": 0, "is_rule": false, "colour": "", "version": 1}, {"number": 3, "name": "Elf", "kind": "A", "text": "Quick: draw a card.", "author": 5, "author_name": "Di", "zone": "draw", "owner": 0, "attached_to": null, "deck_owner": 0, "is_rule": false, "colour": "", "version": 1}], "piles": [["draw", 0, [1, 2, 3]]], "seats": [{"account_id": 5, "name": "Di", "team": "", "out": false}, {"account_id": 6, "name": "Fay", "team": "", "out": false}], "settings": {"handsize": 2, "handlimit": 5, "turns": true, "draws": 1, "plays": 1, "actions": 1, "reshuffle": true, "teams": false, "multideck": false, "vote": "unanimous", "halt": true, "ccg": false, "decksize": 4, "maxcopies": 0, "votetime": 300}, "turn": {"player": 0, "number": 0, "drawn": 0, "things": 0, "actions": 0, "gives": 0, "discarded": 0}, "phase": "waiting", "result": "", "proposals": [], "face_down": [], "room": "Arena", "versions": {"1": [{"version": 1, "name": "Goblin", "kind": "T", "text": "Small and mean.", "colour": "", "created_at": "2026-12-01T22:25:58.280088+00:00"}], "2": [{"version": 1, "name": "Troll", "kind": "T", "text": "Big and slow.", "colour": "", "created_at": "2026-12-01T22:25:58.287061+00:00"}], "3": [{"version": 1, "name": "Elf", "kind": "A", "text": "Quick: draw a card.", "colour": "", "created_at": "2026-12-01T22:25:58.300389+00:00"}]}}	1530
\.


--
-- Data for Name: seats; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.seats (room_id, account_id, "position", team, "out", away_since_seq, away_at, absent, name, bot) FROM stdin;
1	1	0		f	\N	\N	f	Ann	
2	1	0		f	39	2026-12-01 22:25:58.058285+00	f	Ann	
2	3	2		f	39	2026-12-01 22:25:58.06194+00	f	Cy	
2	2	1		f	39	2026-12-01 22:25:58.068102+00	f	Bo	
3	5	0		f	12	2026-12-01 22:25:58.397449+00	f	Di	
3	6	1		f	12	2026-12-01 22:25:58.397946+00	f	Fay	
4	-1	1		f	\N	\N	f	Olga	normal
4	-2	2		f	\N	\N	f	Sven	strong
4	7	0		f	15	2026-12-01 22:26:01.575413+00	f	Gus	
5	-1	1		f	\N	\N	f	Ysolde	easy
5	-2	2		f	\N	\N	f	Tristan	normal
5	8	0		f	19	2026-12-01 22:26:02.195178+00	f	Hana	
\.


--
-- Data for Name: votes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.votes (room_id, proposal_id, account_id, choice, voted_at, seq) FROM stdin;
2	1	1	approve	2026-12-01 22:25:57.870169+00	35
2	1	2	approve	2026-12-01 22:25:57.88508+00	36
2	1	3	approve	2026-12-01 22:25:57.896601+00	37
2	2	2	approve	2026-12-01 22:25:57.915137+00	38
2	2	1	approve	2026-12-01 22:25:57.937102+00	39
\.


--
-- Name: accounts_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.accounts_id_seq', 8, true);


--
-- Name: game_results_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.game_results_id_seq', 1, false);


--
-- Name: player_decks_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.player_decks_id_seq', 2, true);


--
-- Name: room_talk_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.room_talk_id_seq', 1, false);


--
-- Name: rooms_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.rooms_id_seq', 5, true);


--
-- Name: saved_decks_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.saved_decks_id_seq', 1, true);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: accounts pk_accounts; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT pk_accounts PRIMARY KEY (id);


--
-- Name: card_versions pk_card_versions; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_versions
    ADD CONSTRAINT pk_card_versions PRIMARY KEY (room_id, number, version);


--
-- Name: cards pk_cards; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cards
    ADD CONSTRAINT pk_cards PRIMARY KEY (room_id, number);


--
-- Name: events pk_events; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT pk_events PRIMARY KEY (room_id, seq);


--
-- Name: game_results pk_game_results; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_results
    ADD CONSTRAINT pk_game_results PRIMARY KEY (id);


--
-- Name: player_decks pk_player_decks; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_decks
    ADD CONSTRAINT pk_player_decks PRIMARY KEY (id);


--
-- Name: proposals pk_proposals; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proposals
    ADD CONSTRAINT pk_proposals PRIMARY KEY (room_id, id);


--
-- Name: room_talk pk_room_talk; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_talk
    ADD CONSTRAINT pk_room_talk PRIMARY KEY (id);


--
-- Name: rooms pk_rooms; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms
    ADD CONSTRAINT pk_rooms PRIMARY KEY (id);


--
-- Name: saved_decks pk_saved_decks; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.saved_decks
    ADD CONSTRAINT pk_saved_decks PRIMARY KEY (id);


--
-- Name: seats pk_seats; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT pk_seats PRIMARY KEY (room_id, account_id);


--
-- Name: votes pk_votes; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.votes
    ADD CONSTRAINT pk_votes PRIMARY KEY (room_id, proposal_id, account_id);


--
-- Name: accounts uq_accounts_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT uq_accounts_name_key UNIQUE (name_key);


--
-- Name: rooms uq_rooms_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms
    ADD CONSTRAINT uq_rooms_name_key UNIQUE (name_key);


--
-- Name: saved_decks uq_saved_decks_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.saved_decks
    ADD CONSTRAINT uq_saved_decks_name_key UNIQUE (name_key);


--
-- Name: ix_accounts_created_from; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_accounts_created_from ON public.accounts USING btree (created_address, created_at);


--
-- Name: ix_cards_place; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_cards_place ON public.cards USING btree (room_id, zone, owner, "position");


--
-- Name: ix_game_results_room_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_game_results_room_id ON public.game_results USING btree (room_id);


--
-- Name: ix_player_decks_owner_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_player_decks_owner_name ON public.player_decks USING btree (owner_account_id, name_key);


--
-- Name: ix_room_talk_room; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_room_talk_room ON public.room_talk USING btree (room_id, id);


--
-- Name: ix_rooms_created_by_account_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_rooms_created_by_account_id ON public.rooms USING btree (created_by_account_id);


--
-- Name: ix_saved_decks_owner_account_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_saved_decks_owner_account_id ON public.saved_decks USING btree (owner_account_id);


--
-- Name: ix_seats_account_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_seats_account_id ON public.seats USING btree (account_id);


--
-- Name: card_versions fk_card_versions_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_versions
    ADD CONSTRAINT fk_card_versions_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: cards fk_cards_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cards
    ADD CONSTRAINT fk_cards_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: events fk_events_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT fk_events_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: game_results fk_game_results_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_results
    ADD CONSTRAINT fk_game_results_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: player_decks fk_player_decks_owner_account_id_accounts; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_decks
    ADD CONSTRAINT fk_player_decks_owner_account_id_accounts FOREIGN KEY (owner_account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: proposals fk_proposals_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proposals
    ADD CONSTRAINT fk_proposals_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: room_talk fk_room_talk_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_talk
    ADD CONSTRAINT fk_room_talk_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: saved_decks fk_saved_decks_owner_account_id_accounts; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.saved_decks
    ADD CONSTRAINT fk_saved_decks_owner_account_id_accounts FOREIGN KEY (owner_account_id) REFERENCES public.accounts(id);


--
-- Name: seats fk_seats_room_id_rooms; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT fk_seats_room_id_rooms FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: votes fk_votes_room_id_proposals; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.votes
    ADD CONSTRAINT fk_votes_room_id_proposals FOREIGN KEY (room_id, proposal_id) REFERENCES public.proposals(room_id, id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


