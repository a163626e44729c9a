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
    both_or8([X],[R],H0,Hout,E,T1).
both_join2([P,X],[R],H0,Hout,E,both_join2(2,[T1])) :-
    #\ (P),
    both_then6([],[R],H0,Hout,E,T1).

both_and3_c([P,X,X4],[R],H0,Hout,E,both_and3_c(1,[T1])) :-
    0 #< X4,
    both_cmp5([P,X,X4],[R],H0,Hout,E,T1).
both_and3_c([P,X,X4],[R],H0,Hout,E,both_and3_c(2,[T1])) :-
    0 #>= X4,
    both_join2([P,X],[R],H0,Hout,E,T1).

both_and3([P,X],[R],H0,Hout,E,both_and3(1,[T1])) :-
    X4 #= X,
    both_and3_c([P,X,X4],[R],H0,Hout,E,T1).   % line 2

both_cmp5([P,X,X4],[R],H0,Hout,E,both_cmp5(1,[T1])) :-
    X4 #< 10,
    both_then1([],[R],H0,Hout,E,T1).
both_cmp5([P,X,X4],[R],H0,Hout,E,both_cmp5(2,[T1])) :-
    X4 #>= 10,
    both_join2([P,X],[R],H0,Hout,E,T1).

both_then6([],[R],H0,H0,ok,both_then6(1,[])) :-
    R #= 2.   % line 5

both_join7([],[R],H0,H0,ok,both_join7(1,[])) :-
    R #= 3.   % line 6

both_or8([X],[R],H0,Hout,E,both_or8(1,[T1])) :-
    X #= 3,
    both_then6([],[R],H0,Hout,E,T1).
both_or8([X],[R],H0,Hout,E,both_or8(2,[T1])) :-
    X #\= 3,
    both_join7([],[R],H0,Hout,E,T1).
