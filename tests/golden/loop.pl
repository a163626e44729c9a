% ---- count

count([N],[R],H0,Hout,E,count(1,[T1])) :-
    I #= 0,
    count_loop1([N,I],[R],H0,Hout,E,T1).   % lines 2, 3

count_loop1([N,I],[R],H0,Hout,E,count_loop1(1,[T1])) :-
    I #< N,
    count_body2([N,I],[R],H0,Hout,E,T1).
count_loop1([N,I],[R],H0,Hout,E,count_loop1(2,[T1])) :-
    I #>= N,
    count_exit3([I],[R],H0,Hout,E,T1).

% one iteration of count_loop1
count_body2([N,I],[R],H0,Hout,E,count_body2(1,[T1])) :-
    I1 #= (I + 1),
    count_loop1([N,I1],[R],H0,Hout,E,T1).   % lines 4, 3

count_exit3([I],[R],H0,H0,ok,count_exit3(1,[])) :-
    R #= I.   % line 5
