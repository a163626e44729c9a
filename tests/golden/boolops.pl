% ---- both

% entry executes line 2
both([P,X],[R],H0,Hout,E,both(1,[T1])) :-
    P #\= 0,
    both_and3([P,X],[R],H0,Hout,E,T1).
both([P,X],[R],H0,Hout,E,both(2,[T1])) :-
    #\ (P),
    both_join2([P,X],[R],H0,Hout,E,T1).

both_then1([],[R],H0,H0,ok,both_then1(1,[])) :-
    R #= 1.   % line 3

% entry executes line 4
both_join2([P,X],[R],H0,Hout,E,both_join2(1,[T1])) :-
    P #\= 0,
    both_or7([X],[R],H0,Hout,E,T1).
both_join2([P,X],[R],H0,Hout,E,both_join2(2,[T1])) :-
    #\ (P),
    both_then5([],[R],H0,Hout,E,T1).

both_and3([P,X],[R],H0,Hout,E,both_and3(1,[T1])) :-
    0 #< X,
    both_cmp4([P,X],[R],H0,Hout,E,T1).
both_and3([P,X],[R],H0,Hout,E,both_and3(2,[T1])) :-
    0 #>= X,
    both_join2([P,X],[R],H0,Hout,E,T1).

both_cmp4([P,X],[R],H0,Hout,E,both_cmp4(1,[T1])) :-
    X #< 10,
    both_then1([],[R],H0,Hout,E,T1).
both_cmp4([P,X],[R],H0,Hout,E,both_cmp4(2,[T1])) :-
    X #>= 10,
    both_join2([P,X],[R],H0,Hout,E,T1).

both_then5([],[R],H0,H0,ok,both_then5(1,[])) :-
    R #= 2.   % line 5

both_join6([],[R],H0,H0,ok,both_join6(1,[])) :-
    R #= 3.   % line 6

both_or7([X],[R],H0,Hout,E,both_or7(1,[T1])) :-
    X #= 3,
    both_then5([],[R],H0,Hout,E,T1).
both_or7([X],[R],H0,Hout,E,both_or7(2,[T1])) :-
    X #\= 3,
    both_join6([],[R],H0,Hout,E,T1).
