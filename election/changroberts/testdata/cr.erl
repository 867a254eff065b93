%% Chang-Roberts on a ring of N Erlang processes, every process starting:
%% the reference point for ringlab's live runtime (see BenchmarkElection).
%% Each process sends its id to its successor, forwards bigger ids and
%% swallows smaller ones; the biggest comes home and its owner announces
%% itself once round the ring. Ids are 1..N in a random order.
%%
%% Run (the +P flag raises the process limit above N):
%%   erlc -o /tmp election/changroberts/testdata/cr.erl
%%   erl +P 2000000 -noshell -pa /tmp -s cr main 1000000 -s init stop
-module(cr).
-export([main/1, node/2]).

main([Arg]) ->
    N = list_to_integer(atom_to_list(Arg)),
    Ids = [I || {_, I} <- lists:sort([{rand:uniform(), I} || I <- lists:seq(1, N)])],
    T0 = erlang:monotonic_time(microsecond),
    Self = self(),
    Pids = [spawn(?MODULE, node, [Id, Self]) || Id <- Ids],
    Nexts = tl(Pids) ++ [hd(Pids)],
    [P ! {next, Q} || {P, Q} <- lists:zip(Pids, Nexts)],
    [P ! start || P <- Pids],
    Msgs = collect(N, 0),
    T = erlang:monotonic_time(microsecond) - T0,
    io:format("~b processes, ~b messages: ~.3f s (~.1f ns/msg)~n",
              [N, Msgs, T / 1.0e6, T * 1000 / Msgs]).

%% collect waits for every process to report the messages it sent.
collect(0, Msgs) -> Msgs;
collect(K, Msgs) -> receive {sent, S} -> collect(K - 1, Msgs + S) end.

node(Id, Main) ->
    Next = receive {next, P} -> P end,
    receive start -> Next ! {elect, Id} end,
    loop(Id, Next, Main, 1).

loop(Id, Next, Main, Sent) ->
    receive
        {elect, Q} when Q > Id -> Next ! {elect, Q}, loop(Id, Next, Main, Sent + 1);
        {elect, Q} when Q < Id -> loop(Id, Next, Main, Sent);
        {elect, Id} -> Next ! {elected, Id}, loop(Id, Next, Main, Sent + 1);
        {elected, Id} -> Main ! {sent, Sent};
        {elected, L} -> Next ! {elected, L}, Main ! {sent, Sent + 1}
    end.
