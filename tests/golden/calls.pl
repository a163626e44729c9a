% ---- helper

helper([A],[R],H0,H1,ok,helper(1,[T1])) :-
    abs([A],[X1],H0,H1,ok,T1),
    R #= (X1 + 1).   % line 2

% ---- total

total([N,M],[R],H0,Hout,E,total(1,[T1])) :-
    S #= 0,
    X1 #= N,
    It2 #= 0,
    total_loop3([M,S,X1,It2],[R],H0,Hout,E,T1).   % lines 6, 7

total_loop3([M,S,X1,It2],[R],H0,Hout,E,total_loop3(1,[T1])) :-
    It2 #< X1,
    total_body4([M,S,X1,It2],[R],H0,Hout,E,T1).
total_loop3([M,S,X1,It2],[R],H0,Hout,E,total_loop3(2,[T1])) :-
    It2 #>= X1,
    total_exit5([M,S],[R],H0,Hout,E,T1).

% one iteration of total_loop3
total_body4([M,S,X1,It2],[R],H0,Hout,E,total_body4(1,[T1,T2])) :-
    I #= It2,
    It21 #= (It2 + 1),
    helper([I],[X6],H0,H1,ok,T1),
    S1 #= (S + X6),
    total_loop3([M,S1,X1,It21],[R],H1,Hout,E,T2).   % lines 7, 8

total_exit5([M,S],[R],H0,H1,ok,total_exit5(1,[T1])) :-
    min([S,M],[X7],H0,H1,ok,T1),
    R #= X7.   % line 9

% ---- builtins

abs([A],[R],H0,H0,ok,abs(1,[])) :-
    A #>= 0,
    R #= A.
abs([A],[R],H0,H0,ok,abs(2,[])) :-
    A #< 0,
    R #= -A.

min([A,B],[R],H0,H0,ok,min(1,[])) :-
    B #< A,
    R #= B.
min([A,B],[R],H0,H0,ok,min(2,[])) :-
    B #>= A,
    R #= A.
